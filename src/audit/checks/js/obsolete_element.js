// Function expression (node), the evaluate of a11y-obsolete-element, run on an HTML center,
// font, basefont, big, tt or strike element: returns false (naming the element), since HTML
// made these presentational elements obsolete.
(function (node) {
  if (node.namespaceURI !== 'http://www.w3.org/1999/xhtml') return true;
  this.data({ element: node.localName });
  return false;
})
