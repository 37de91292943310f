// Function expression (original), an override of axe's color-contrast and
// color-contrast-enhanced checks: returns their evaluate, which passes an element whose own
// text holds no letter or digit (a row of symbols is no text in a human language, which the
// contrast criteria are about) and otherwise keeps axe's verdict.
(function (original) {
  const MEANINGFUL = /[\p{L}\p{N}]/u;
  return function (node, options, virtualNode) {
    const own = Array.from(node.childNodes)
      .filter((child) => child.nodeType === Node.TEXT_NODE)
      .map((child) => child.data)
      .join('');
    if (own.trim() && !MEANINGFUL.test(own) && !node.children.length) return true;
    return original.call(this, node, options, virtualNode);
  };
})
