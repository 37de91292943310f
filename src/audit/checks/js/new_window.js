// Function expression (part, textAfter), called once when the checks are configured (textAfter is
// text_after_link.js, for the evaluate): returns the matches
// (node, virtualNode) or the evaluate (node, options, virtualNode) of a11y-new-window-warning.
// The matches take an exposed, named link whose target opens another window or tab (_blank,
// or a name no frame of the document has). The evaluate answers true when the link's name, its
// description, its title or the text just after it says that it opens a new window or tab (in
// a language it knows), undefined when it cannot tell (the link's language is one it does not
// read, or a picture or a mark drawn by CSS inside the link may be the warning), false else.
/* global axe */
(function (part, textAfter) {
  const { dom, text } = axe.commons;
  // "Opens in a new window", "(new tab)", "nouvel onglet", "neuen Fenster", ... by language.
  const WARNINGS = {
    en: /\b(?:new|separate|another|external)\s+(?:browser\s+)?(?:window|tab)s?\b|\bnew-?(?:window|tab)\b|\bopens?\s+(?:in\s+)?(?:a\s+)?(?:new|separate)\b|\bpop-?up\b/i,
    fr: /\bnouv(?:el|elle|eau)\s+(?:fen[êe]tre|onglet)|\bfen[êe]tre\s+(?:externe|s[ée]par[ée]e)/i,
    de: /\bneue[nms]?\s+(?:browser-?)?(?:fenster|tab|registerkarte)|\bneuem\s+tab/i,
    es: /\bnuev[ao]\s+(?:ventana|pesta[ñn]a)/i,
    pt: /\bnov[ao]\s+(?:janela|aba|guia)/i,
    it: /\bnuov[ao]\s+(?:finestra|scheda)/i,
    nl: /\bnieuwe?\s+(?:venster|tabblad|tab)\b/i,
    sv: /\bnytt?\s+(?:f[öo]nster|flik)/i,
    da: /\bnyt?\s+(?:vindue|fane)/i,
    nb: /\bnytt?\s+(?:vindu|fane)/i,
    pl: /\bnow(?:ym|ej|e|a)\s+(?:oknie|okno|karcie|karta)/i,
    ja: /新しい(?:ウィンドウ|ウインドウ|タブ)|別(?:ウィンドウ|ウインドウ|タブ)|新規(?:ウィンドウ|タブ)/,
    zh: /新(?:窗口|視窗|视窗|标签页|標籤頁|分頁)/,
  };
  WARNINGS.no = WARNINGS.nb;
  WARNINGS.nn = WARNINGS.nb;
  const opensWindow = (node) => {
    const target = (node.getAttribute('target') || '').trim().toLowerCase();
    if (!target || ['_self', '_parent', '_top'].includes(target)) return false;
    if (target === '_blank') return true;
    const frames = Array.from(document.querySelectorAll('iframe[name], frame[name]'));
    return !frames.some((frame) => frame.getAttribute('name').toLowerCase() === target);
  };
  const hasAddress = (node) => {
    const href = (node.getAttribute('href') || '').trim();
    return href !== '' && !href.startsWith('#') && !/^(?:javascript|mailto|tel|sms):/i.test(href);
  };
  const matches = function (node, virtualNode) {
    return (node.localName === 'a' || node.localName === 'area') && node.hasAttribute('href') &&
      !node.hasAttribute('download') && hasAddress(node) && opensWindow(node) &&
      dom.isVisibleToScreenReaders(virtualNode) && text.accessibleTextVirtual(virtualNode).trim() !== '';
  };
  const language = (node) => {
    const holder = node.closest('[lang]');
    return holder ? holder.getAttribute('lang').trim().toLowerCase().split('-')[0] : '';
  };
  // A picture or a CSS mark with nothing to read: it may be the visual warning (an arrow box).
  const unreadMark = (node) => {
    const pictures = Array.from(node.querySelectorAll('img, svg, i, span[class*="icon"], span[class*="Icon"]'));
    if (pictures.some((el) => (el.localName === 'img' ? !(el.getAttribute('alt') || '').trim() : !el.textContent.trim()))) {
      return true;
    }
    return ['::before', '::after'].some((pseudo) => {
      const content = getComputedStyle(node, pseudo).content;
      return content && content !== 'none' && content !== 'normal' && content !== '""';
    });
  };
  const evaluate = function (node, options, virtualNode) {
    const root = node.getRootNode();
    const described = (node.getAttribute('aria-describedby') || '').split(/\s+/).filter(Boolean)
      .map((id) => (root.getElementById ? root.getElementById(id) : null)).filter(Boolean)
      .map((el) => el.textContent).join(' ');
    const told = [text.accessibleTextVirtual(virtualNode), node.getAttribute('title') || '', described, textAfter(node)].join(' ');
    const lang = language(node);
    const known = WARNINGS[lang];
    if (known ? known.test(told) : Object.values(WARNINGS).some((words) => words.test(told))) return true;
    if (!known) {
      this.data({ why: lang ? `is in a language (${lang}) whose wording this check does not read` : 'has no declared language' });
      return undefined;
    }
    if (unreadMark(node)) {
      this.data({ why: 'has a picture or a mark drawn by CSS with nothing to read, which may be the only warning' });
      return undefined;
    }
    return false;
  };
  return part === 'matches' ? matches : evaluate;
})
