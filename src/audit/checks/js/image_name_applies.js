// Function expression (node, virtualNode), the matches of a11y-image-name-meaningful: returns
// true for an image exposed to assistive technologies with a non-empty accessible name (an img,
// an image button, an area link, or an element of role img), unless an ancestor named with
// aria-label or aria-labelledby replaces that name.
/* global axe */
(function (node, virtualNode) {
  const { aria, dom, text } = axe.commons;
  const tag = node.localName;
  const role = aria.getRole(virtualNode);
  const image = tag === 'img' || role === 'img' || role === 'image' ||
    (tag === 'input' && (node.getAttribute('type') || '').trim().toLowerCase() === 'image') ||
    (tag === 'area' && node.hasAttribute('href'));
  if (!image || role === 'none' || role === 'presentation') return false;
  if (!dom.isVisibleToScreenReaders(virtualNode)) return false;
  for (let up = virtualNode.parent; up; up = up.parent) {
    if (up.props.nodeType !== 1) continue;
    if (aria.arialabelText(up).trim() || aria.arialabelledbyText(up).trim()) return false;
  }
  return text.accessibleTextVirtual(virtualNode).trim() !== '';
})
