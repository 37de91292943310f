// Function expression (node), the matches of a11y-bypass-landmark: returns true for the top
// document's html element when it has a body; frames are judged with their page. Unlike the
// other bypass techniques it also applies where no landmark marks a repeated block, since a
// navigation block that is not marked as one is what a missing landmark hides.
(function (node) {
  return window.top === window && !!node.ownerDocument.body;
})
