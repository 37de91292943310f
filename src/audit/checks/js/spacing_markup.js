// Function expression (part), called once when the checks are configured: returns the matches
// (node) or the evaluate (node) of a11y-spacing-markup. The matches take a p element and the
// first br of a run (a br whose previous sibling, white space and comments aside, is not a br);
// the evaluate answers false for a paragraph with nothing in it but white space, no-break
// spaces or line breaks that still takes room (it is there for spacing), and for a run of 2 or
// more br elements (an empty line for spacing), naming which; true otherwise.
(function (part) {
  const SPACE = /^(?:\s|\u00a0|\u200b|\u200c|\u200d|\ufeff)*$/;
  const sibling = (node, step) => {
    let n = node[step];
    while (n && ((n.nodeType === Node.TEXT_NODE && !n.data.trim()) || n.nodeType === Node.COMMENT_NODE)) n = n[step];
    return n;
  };
  const isBreak = (n) => Boolean(n) && n.nodeType === Node.ELEMENT_NODE && n.localName === 'br';
  const matches = function (node) {
    if (node.localName === 'p') return true;
    return isBreak(node) && !isBreak(sibling(node, 'previousSibling'));
  };
  const evaluate = function (node) {
    if (node.localName === 'p') {
      const empty = SPACE.test(node.textContent) &&
        Array.from(node.children).every((child) => child.localName === 'br');
      if (!empty || node.getBoundingClientRect().height < 1) return true;
      this.data({ what: 'An empty paragraph' });
      return false;
    }
    let run = 1;
    for (let n = sibling(node, 'nextSibling'); isBreak(n); n = sibling(n, 'nextSibling')) run += 1;
    if (run < 2) return true;
    this.data({ what: `A run of ${run} line breaks` });
    return false;
  };
  return part === 'matches' ? matches : evaluate;
})
