// Function expression (node, virtualNode), the matches of a11y-judge-link-purpose and
// a11y-judge-link-in-context: returns true for an element whose role is link or one that
// inherits from it, exposed to assistive technologies, with a non-empty accessible name.
/* global axe */
(function (node, virtualNode) {
  const { aria, dom, text } = axe.commons;
  const LINKS = ['link', 'doc-backlink', 'doc-biblioref', 'doc-glossref', 'doc-noteref'];
  return LINKS.includes(aria.getRole(virtualNode)) && dom.isVisibleToScreenReaders(virtualNode) &&
    text.accessibleTextVirtual(virtualNode).trim() !== '';
})
