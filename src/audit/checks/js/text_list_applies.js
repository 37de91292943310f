// Function expression (node), the matches of a11y-text-list: returns true for an element with
// two or more <br> or three or more <p> children of its own, outside preformatted text, code
// and editable regions, and not already a list.
// The children are counted first: the ancestors are looked at only for the few that qualify.
(function (node) {
  const children = Array.from(node.children);
  const enough = children.filter((child) => child.localName === 'br').length >= 2
    || children.filter((child) => child.localName === 'p').length >= 3;
  return enough
    && !node.closest('pre, code, textarea, [contenteditable=""], [contenteditable="true"], ul, ol, dl, [role="list"]');
})
