// Function expression (original), an override of the matches of axe's frame-focusable-content
// rule (run inside each frame): returns a matches that also leaves out a frame whose iframe
// element is inert (under an inert attribute, or outside an open modal dialog), since nothing
// in it can take focus whatever its tabindex. A frame whose parent is another origin (no
// frameElement) keeps axe's verdict.
(function (original) {
  const inert = () => {
    try {
      const frame = window.frameElement;
      if (!frame) return false;
      if (frame.closest('[inert]')) return true;
      const modal = frame.ownerDocument.querySelector('dialog:modal');
      return !!modal && !modal.contains(frame);
    } catch {
      return false;
    }
  };
  return function (node, virtualNode, context) {
    return original(node, virtualNode, context) && !inert();
  };
})
