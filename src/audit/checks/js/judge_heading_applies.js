// Function expression (node, virtualNode), the matches of a11y-judge-heading: returns true for
// an element whose role is heading (after presentational-role conflict resolution), exposed to
// assistive technologies (visible on screen or not) and with a non-empty accessible name.
/* global axe */
(function (node, virtualNode) {
  const { aria, dom, text } = axe.commons;
  return aria.getRole(virtualNode) === 'heading' && dom.isVisibleToScreenReaders(virtualNode) &&
    text.accessibleTextVirtual(virtualNode).trim() !== '';
})
