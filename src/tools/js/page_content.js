// Whole script, an expression: returns the document's serialized HTML, doctype included.
(() => {
  const d = document.doctype;
  const doctype = d ? new XMLSerializer().serializeToString(d) + '\n' : '';
  return doctype + (document.documentElement ? document.documentElement.outerHTML : '');
})()
