// Function expression (node), the matches of a11y-judge-page-title: returns true for the
// document title of a top-level page (its first HTML title element, wherever it is) when the
// title has text other than whitespace.
(function (node) {
  const doc = node.ownerDocument;
  if (window.top !== window || doc !== document) return false;
  const first = doc.getElementsByTagNameNS('http://www.w3.org/1999/xhtml', 'title')[0];
  return node === first && /\S/.test(node.textContent);
})
