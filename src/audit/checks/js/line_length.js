// Function expression (node), the evaluate of a11y-line-length, run on a block of running text
// of 3 lines or more: counts the characters of each line as rendered (40 glyphs is the limit
// for Chinese, Japanese or Korean text, 80 characters otherwise) and returns true unless 2
// lines before the last are longer and the block is seen on screen; then false when the block cannot get narrower than the
// limit because it, or an element around it, has a fixed width or minimum width (from its
// style attribute or a style rule that no media, container or size condition can change),
// undefined when narrowing the window may reflow it to shorter lines.
/* global axe */
(function (node) {
  const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;
  const ABSOLUTE = /^(-?[\d.]+)(px|em|rem|pt|pc|cm|mm|in|ch|ex|q)$/i;
  const WIDTHS = ['width', 'min-width', 'max-width', 'flex', 'flex-basis', 'display', 'grid-template-columns'];
  const RESPONSIVE = /width|height|aspect|orientation|device/i;
  const MAX_CHARS = 4000;
  const blocks = axe._cache.get('a11y-running-text', () => new Map()).get(node.getRootNode());
  const texts = blocks && blocks.get(node) ? blocks.get(node).texts : [];
  if (!texts.length) return true;
  const all = texts.map((t) => t.data).join('');
  const cjk = (all.match(CJK) || []).length > all.replace(/\s/g, '').length / 2;
  const limit = cjk ? 40 : 80;
  const fontSize = parseFloat(getComputedStyle(node).fontSize) || 16;
  const range = node.ownerDocument.createRange();

  // Characters per line, lines in the order they appear.
  const lines = [];
  const add = (rect, chars) => {
    const middle = (rect.top + rect.bottom) / 2;
    let line = lines.length ? lines[lines.length - 1] : null;
    if (!line || middle < line.top || middle > line.bottom) {
      line = lines.find((l) => middle >= l.top && middle <= l.bottom);
      if (!line) {
        line = { top: rect.top, bottom: rect.bottom, chars: 0 };
        lines.push(line);
      }
    }
    line.chars += chars;
  };
  let seen = 0;
  for (const t of texts) {
    if (seen > MAX_CHARS) break;
    if (cjk) {
      range.selectNodeContents(t);
      for (const rect of range.getClientRects()) {
        if (rect.width >= 1) add(rect, rect.width / fontSize);
      }
      seen += t.data.length;
      continue;
    }
    for (const word of t.data.matchAll(/\S+\s*/g)) {
      const length = word[0].trimEnd().length;
      range.setStart(t, word.index);
      range.setEnd(t, word.index + length);
      const rect = range.getClientRects()[0];
      if (rect && rect.width >= 1) add(rect, length + (word[0].length > length ? 1 : 0));
      seen += word[0].length;
    }
  }
  const longest = lines.slice(0, -1).map((l) => Math.round(l.chars)).filter((chars) => chars > limit);
  if (longest.length < 2 || !axe.commons.dom.isVisibleOnScreen(node)) return true;
  const chars = Math.max(...longest);
  this.data({ chars, limit });

  // The page's width rules once per run: selectors of rules that set an absolute width or
  // minimum width unconditionally, selectors of rules that a media, container or size
  // condition applies (and so may change as the window narrows), and whether every sheet
  // could be read.
  const sheets = axe._cache.get('a11y-width-rules', () => {
    const found = { fixed: [], conditional: [], complete: true };
    const visit = (rules, conditional) => {
      for (const rule of rules) {
        if (rule instanceof CSSStyleRule) {
          if (conditional) {
            if (WIDTHS.some((p) => rule.style.getPropertyValue(p))) found.conditional.push(rule.selectorText);
          } else if (['width', 'min-width'].some((p) => ABSOLUTE.test(rule.style.getPropertyValue(p).trim()))) {
            found.fixed.push(rule);
          }
        } else if (rule instanceof CSSMediaRule) {
          const media = rule.media.mediaText;
          if (RESPONSIVE.test(media)) visit(rule.cssRules, true);
          else if (!media || matchMedia(media).matches) visit(rule.cssRules, conditional);
        } else if (rule instanceof CSSImportRule) {
          try {
            visit(rule.styleSheet.cssRules, conditional || RESPONSIVE.test(rule.media.mediaText));
          } catch {
            found.complete = false;
          }
        } else if (typeof CSSContainerRule !== 'undefined' && rule instanceof CSSContainerRule) {
          visit(rule.cssRules, true);
        } else if (rule.cssRules) {
          visit(rule.cssRules, conditional); // @supports and @layer blocks
        }
      }
    };
    const doc = node.ownerDocument;
    for (const sheet of [...doc.styleSheets, ...(doc.adoptedStyleSheets || [])]) {
      try {
        visit(sheet.cssRules, RESPONSIVE.test(sheet.media ? sheet.media.mediaText : ''));
      } catch {
        found.complete = false;
      }
    }
    return found;
  });
  if (!sheets.complete) return undefined;

  const matching = (el, selector) => {
    try {
      return el.matches(selector);
    } catch {
      return false;
    }
  };
  const px = (value, el) => {
    const [, number, unit] = value.trim().match(ABSOLUTE) || [];
    if (number === undefined) return null;
    const size = unit.toLowerCase();
    const em = parseFloat(getComputedStyle(el).fontSize);
    const rem = parseFloat(getComputedStyle(el.ownerDocument.documentElement).fontSize);
    const factor = { px: 1, em, rem, pt: 4 / 3, pc: 16, cm: 96 / 2.54, mm: 96 / 25.4, in: 96, q: 96 / 101.6 }[size];
    return factor ? parseFloat(number) * factor : null;
  };
  // The narrowest the element can get, when a fixed width or minimum width in force says so.
  const floor = (el) => {
    const style = getComputedStyle(el);
    const declared = [el.style];
    for (const rule of sheets.fixed) if (matching(el, rule.selectorText)) declared.push(rule.style);
    let narrowest = null;
    for (const declaration of declared) {
      const width = px(declaration.getPropertyValue('width'), el);
      const shrinks = style.maxWidth.endsWith('%') ||
        (el.parentElement && getComputedStyle(el.parentElement).display.endsWith('flex') &&
          parseFloat(style.flexShrink) > 0);
      if (width !== null && !shrinks && Math.abs(width - parseFloat(style.width)) < 1) {
        narrowest = Math.max(narrowest || 0, el.getBoundingClientRect().width);
      }
      const min = px(declaration.getPropertyValue('min-width'), el);
      if (min !== null && Math.abs(min - parseFloat(style.minWidth)) < 1) narrowest = Math.max(narrowest || 0, min);
    }
    return narrowest;
  };
  const width = node.getBoundingClientRect().width;
  const needed = width - (width * limit) / chars; // how much narrower the block must get
  for (let el = node; el && el.nodeType === Node.ELEMENT_NODE; el = el.parentElement) {
    if (sheets.conditional.some((selector) => matching(el, selector))) return undefined;
    const narrowest = floor(el);
    if (narrowest !== null && narrowest > el.getBoundingClientRect().width - needed) return false;
  }
  return undefined;
})
