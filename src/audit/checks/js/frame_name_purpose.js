// Function expression (node), the axe check of a11y-frame-name-purpose, run on each iframe
// or frame with an accessible name: records the name and the resource the frame embeds (its
// resolved src, or its srcdoc) as the check's data for the after step; returns true.
/* global axe */
(function (node, options, virtualNode) {
  const name = axe.commons.text.accessibleTextVirtual(virtualNode).trim().toLowerCase().replace(/\s+/g, ' ');
  const resource = node.hasAttribute('srcdoc')
    ? 'srcdoc:' + node.getAttribute('srcdoc')
    : node.getAttribute('src') ? new URL(node.getAttribute('src'), node.ownerDocument.baseURI).href : 'about:blank';
  this.data({ name, resource });
  return true;
})
