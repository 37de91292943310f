// Function expression (part), called once when the checks are configured: returns the matches
// (node) or the evaluate (node) of a11y-tiny-text. The matches take an HTML element outside SVG
// and MathML with text of its own that has a letter, a font size below 9 pixels, and visible on
// screen (not clipped away, as visually hidden text is, nor transparent); the evaluate answers
// false when that text renders below 9 CSS pixels (its font size scaled by any transform), true
// otherwise. Text drawn below 2 pixels is a way of hiding it, not small text, and passes.
/* global axe */
(function (part) {
  const { dom } = axe.commons;
  const LETTER = /\p{L}/u;
  const MIN = 9;
  const HIDDEN = 2;
  const ownText = (node) => Array.from(node.childNodes).some(
    (n) => n.nodeType === Node.TEXT_NODE && LETTER.test(n.data),
  );
  const transparent = (color) => /^rgba\(.*,\s*0\)$/.test(color) || color === 'transparent';
  // Only text set below the limit is looked at further (a transform can shrink larger text
  // too, which is left unjudged): the visibility test is costly, and most text is larger.
  const matches = function (node) {
    if (node.namespaceURI !== 'http://www.w3.org/1999/xhtml' || !ownText(node)) return false;
    const style = getComputedStyle(node);
    if (!(parseFloat(style.fontSize) < MIN) || style.visibility !== 'visible' || transparent(style.color)) return false;
    return !node.closest('svg, math, script, style, noscript, template, title') && dom.isVisibleOnScreen(node);
  };
  const rendered = (node) => {
    const size = parseFloat(getComputedStyle(node).fontSize);
    const layout = node.offsetWidth;
    const box = node.getBoundingClientRect().width;
    return layout > 0 && box > 0 ? size * (box / layout) : size;
  };
  const evaluate = function (node) {
    const size = rendered(node);
    if (!(size < MIN) || size < HIDDEN) return true;
    this.data({ size: Math.round(size * 10) / 10 });
    return false;
  };
  return part === 'matches' ? matches : evaluate;
})
