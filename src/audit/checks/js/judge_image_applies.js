// Function expression (kind), called once when the checks are configured: returns the matches
// (node, virtualNode) of an img, canvas or outermost svg element that is visible, not inside an
// element named by aria-label or aria-labelledby, and loaded (an img) or drawn on (a canvas).
// kind 'named' (a11y-judge-image-name) also wants it exposed with a non-empty accessible name;
// kind 'hidden' (a11y-judge-decorative-image) wants it left out of the accessibility tree:
// hidden from assistive technologies, a none/presentation role, an unnamed svg without a role
// or of the graphics-document role, or an unnamed canvas without a role.
/* global axe */
(function (kind) {
  const { aria, dom, text } = axe.commons;
  const PRESENTATIONAL = ['none', 'presentation'];
  const namedAncestor = (virtualNode) => {
    for (let up = virtualNode.parent; up; up = up.parent) {
      if (up.props.nodeType !== 1) continue;
      if (aria.arialabelText(up).trim() || aria.arialabelledbyText(up).trim()) return true;
    }
    return false;
  };
  // A canvas nothing was drawn on shows nothing (read without creating a context; a tainted
  // canvas cannot be read and counts as drawn on).
  const blank = (canvas) => {
    try {
      const empty = document.createElement('canvas');
      empty.width = canvas.width;
      empty.height = canvas.height;
      return canvas.toDataURL() === empty.toDataURL();
    } catch {
      return false;
    }
  };
  const inScope = (node, virtualNode) => {
    if (node.namespaceURI === 'http://www.w3.org/2000/svg' && node.ownerSVGElement) return false;
    if (node.localName === 'img' && !(node.complete && node.naturalWidth > 0)) return false;
    if (node.localName === 'canvas' && blank(node)) return false;
    return dom.isVisibleOnScreen(virtualNode) && !namedAncestor(virtualNode);
  };
  const nameOf = (virtualNode) => text.accessibleTextVirtual(virtualNode).trim();
  const hidden = (node, virtualNode) => {
    if (!dom.isVisibleToScreenReaders(virtualNode)) return true;
    const role = aria.getRole(virtualNode);
    if (PRESENTATIONAL.includes(role)) return true;
    if (node.localName === 'svg') return (!role || role === 'graphics-document') && !nameOf(virtualNode);
    if (node.localName === 'canvas') return !node.hasAttribute('role') && !nameOf(virtualNode);
    return false;
  };
  return function (node, virtualNode) {
    if (!inScope(node, virtualNode)) return false;
    if (kind === 'hidden') return hidden(node, virtualNode);
    return !hidden(node, virtualNode) && nameOf(virtualNode) !== '';
  };
})
