// Function expression (original), an override of axe's css-orientation-lock check: returns its
// evaluate, which passes a document without any style sheet (nothing can lock its orientation)
// where axe answers "cannot be determined"; every other verdict stays axe's.
(function (original) {
  return function (node, options, virtualNode, context) {
    const verdict = original.call(this, node, options, virtualNode, context);
    if (verdict !== undefined) return verdict;
    const sheets = (context && context.cssom) || [];
    const doc = node.ownerDocument;
    const styled = doc.styleSheets.length > 0 || (doc.adoptedStyleSheets || []).length > 0;
    return sheets.length === 0 && !styled ? true : verdict;
  };
})
