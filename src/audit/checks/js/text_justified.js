// Function expression (node), the evaluate of a11y-text-not-justified, run on a block of running
// text that wraps: returns false when the block is justified (text-align justify), its lines
// have spaces to stretch and it is seen on screen, true otherwise.
/* global axe */
(function (node) {
  const align = getComputedStyle(node).textAlign;
  if (align !== 'justify' && align !== 'justify-all') return true;
  const spaces = (node.textContent.match(/\s\S/g) || []).length;
  return spaces < 5 || !axe.commons.dom.isVisibleOnScreen(node);
})
