// Function expression (node, virtualNode), an axe rule's matches: returns true for an element
// exposed to assistive technologies that has a non-empty accessible name.
/* global axe */
(function (node, virtualNode) {
  return axe.commons.dom.isVisibleToScreenReaders(virtualNode) &&
    axe.commons.text.accessibleTextVirtual(virtualNode).trim() !== '';
})
