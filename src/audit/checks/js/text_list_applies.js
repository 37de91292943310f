// Function expression (node), the matches of a11y-text-list: returns true for an element with
// two or more <br> or three or more <p> children of its own, outside preformatted text, code
// and editable regions, and not already a list.
(function (node) {
  if (node.closest('pre, code, textarea, [contenteditable=""], [contenteditable="true"], ul, ol, dl, [role="list"]')) {
    return false;
  }
  const children = Array.from(node.children);
  return children.filter((child) => child.localName === 'br').length >= 2
    || children.filter((child) => child.localName === 'p').length >= 3;
})
