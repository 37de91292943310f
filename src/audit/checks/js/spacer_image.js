// Function expression (part), called once when the checks are configured: returns the matches
// (node) or the evaluate (node) of a11y-spacer-image. The matches take an img with no text
// alternative (alt="", no alt, or hidden from assistive technologies) that is rendered; the
// evaluate answers false when the image is a spacer that makes room on the page: its picture is
// 1 or 2 pixels square (or its file is named spacer, blank, shim, clear, transparent, pixel,
// 1x1) and it is drawn 4 pixels or more wide or high; true otherwise (a tracking pixel drawn at
// 1 by 1 takes no room).
/* global axe */
(function (part) {
  const { dom, text } = axe.commons;
  const NAMED = /(?:^|[/_.-])(?:spacer|spc|blank|shim|clear|clearpixel|transparent|trans|pixel|1x1|dot_clear|s)\.(?:gif|png|webp)(?:[?#].*)?$/i;
  const matches = function (node, virtualNode) {
    if (node.localName !== 'img') return false;
    const unnamed = !dom.isVisibleToScreenReaders(virtualNode) || text.accessibleTextVirtual(virtualNode).trim() === '';
    const rect = node.getBoundingClientRect();
    return unnamed && rect.width > 0 && rect.height > 0 && getComputedStyle(node).visibility === 'visible';
  };
  const evaluate = function (node) {
    const tiny = node.complete && node.naturalWidth > 0 && node.naturalWidth <= 2 && node.naturalHeight <= 2;
    const named = NAMED.test(node.getAttribute('src') || '');
    const rect = node.getBoundingClientRect();
    if (!(tiny || named) || (rect.width < 4 && rect.height < 4)) return true;
    this.data({ width: Math.round(rect.width), height: Math.round(rect.height) });
    return false;
  };
  return part === 'matches' ? matches : evaluate;
})
