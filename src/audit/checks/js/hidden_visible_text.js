// Function expression (part), called once when the checks are configured: returns the matches
// (node) or the evaluate (node) of a11y-hidden-visible-text. It applies to the outermost
// element with aria-hidden="true" that shows text on screen: three words or more (icon-font
// glyphs and symbols aside), visible, with a box. The evaluate passes it when screen reader
// users get the same words another way (anywhere in the page's text that is not hidden from
// them, alternatives and labels included, or in the accessible name of the link or button it
// sits in); asks for review when an element around it carries a label of its own (aria-label,
// aria-labelledby, aria-describedby: the content may be given in other words); fails it
// otherwise: sighted users read text that screen readers never get.
/* global axe */
(function (part) {
  const OUTER = '[aria-hidden="true"]';
  const words = (value) => (value || '').replace(/[\uE000-\uF8FF]/g, ' ').toLowerCase()
    .match(/[\p{L}\p{N}]+/gu) || [];
  const shownText = (el) => words(el.innerText || el.textContent);
  const visible = (el) => (el.checkVisibility
    ? el.checkVisibility({ opacityProperty: true, visibilityProperty: true })
    : el.getClientRects().length > 0);

  const matches = function (node) {
    if (node.parentElement && node.parentElement.closest(OUTER)) return false;  // the outermost only
    if (!visible(node)) return false;
    const box = node.getBoundingClientRect();
    if (box.width < 1 || box.height < 1) return false;
    return shownText(node).filter((w) => /\p{L}/u.test(w)).length >= 3;
  };

  // The words screen reader users get from the page: its text outside aria-hidden, and the
  // alternatives and labels of its elements, once per document and run.
  const spoken = (doc) => {
    const cache = axe._cache.get('a11y-hidden-visible-text', () => new Map());
    if (!cache.has(doc)) {
      const parts = [];
      const walker = doc.createTreeWalker(doc.body || doc.documentElement, NodeFilter.SHOW_TEXT);
      for (let t = walker.nextNode(); t; t = walker.nextNode()) {
        const parent = t.parentElement;
        if (!parent || parent.closest(`${OUTER}, script, style, template, noscript`)) continue;
        parts.push(t.data);
      }
      for (const el of doc.querySelectorAll('[aria-label], [alt], [title], [aria-description]')) {
        if (el.closest(OUTER)) continue;
        parts.push(el.getAttribute('aria-label') || '', el.getAttribute('alt') || '', el.getAttribute('title') || '',
          el.getAttribute('aria-description') || '');
      }
      cache.set(doc, ` ${words(parts.join(' ')).join(' ')} `);
    }
    return cache.get(doc);
  };
  const LABELLED = '[aria-label], [aria-labelledby], [aria-describedby]';

  const evaluate = function (node) {
    const own = shownText(node);
    const sample = own.slice(0, 12).join(' ');
    this.data({ sample });
    if (spoken(node.ownerDocument).includes(` ${own.join(' ')} `)) return true;  // said elsewhere
    const control = node.parentElement && node.parentElement.closest('a[href], button, [role="button"], [role="link"]');
    if (control) {
      const name = ` ${words(axe.commons.text.accessibleText(control)).join(' ')} `;
      if (own.every((w) => name.includes(` ${w} `))) return true;  // the control's name says it
    }
    let around = node.parentElement;
    for (let depth = 0; around && depth < 3; depth += 1, around = around.parentElement) {
      if (around.matches(LABELLED)) return undefined;
    }
    if (node.matches(LABELLED)) return undefined;
    return false;
  };

  return part === 'matches' ? matches : evaluate;
})
