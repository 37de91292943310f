// Function expression (part), called once when the checks are configured: returns the matches
// (node) or the evaluate (node) of a11y-inline-text-color. The matches take an element whose
// style attribute sets the text colour (not to inherit, currentcolor or another keyword that
// keeps the surrounding colour), that has text with a letter and is visible on screen; the
// evaluate answers false for it (naming the colour as written).
/* global axe */
(function (part) {
  const { dom } = axe.commons;
  const KEEPS = ['inherit', 'initial', 'unset', 'revert', 'revert-layer', 'currentcolor'];
  const colored = (node) => {
    const color = node.style.getPropertyValue('color').trim();
    return color !== '' && !KEEPS.includes(color.toLowerCase());
  };
  const matches = function (node) {
    return node.namespaceURI === 'http://www.w3.org/1999/xhtml' && colored(node) &&
      /\p{L}/u.test(node.textContent) && dom.isVisibleOnScreen(node);
  };
  const evaluate = function (node) {
    if (!colored(node)) return true;
    const color = node.style.getPropertyValue('color').trim();
    const written = /(?:^|;)\s*color\s*:\s*([^;!]+)/i.exec(node.getAttribute('style') || '');
    this.data({ color: written ? written[1].trim() : color });
    return false;
  };
  return part === 'matches' ? matches : evaluate;
})
