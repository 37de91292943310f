// Function expression (original), an override of the matches of axe's meta-refresh rules:
// returns a matches that applies the rule only to the document's first meta refresh whose
// content is a valid refresh (the only one a browser acts on), and otherwise defers to axe.
(function (original) {
  // HTML's declarative refresh: optional whitespace, then digits or a full stop, then the
  // end, whitespace, ";" or ",".
  const VALID = /^[\t\n\f\r ]*(?:\d+(?:\.[\d.]*)?|\.[\d.]*)(?:$|[\t\n\f\r ;,])/;
  return function (node, virtualNode, context) {
    const first = Array.from(node.ownerDocument.querySelectorAll('meta[http-equiv][content]')).find(
      (meta) =>
        meta.getAttribute('http-equiv').trim().toLowerCase() === 'refresh' &&
        VALID.test(meta.getAttribute('content')),
    );
    return first === node && original(node, virtualNode, context);
  };
})
