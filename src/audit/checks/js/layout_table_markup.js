// Function expression (node), the axe check of a11y-layout-table-markup, run on a layout
// table: returns false (the markup as related nodes; the table itself for a summary) when it
// has a th, a caption with text, a non-empty summary, or cells with a scope or headers
// attribute of its own (a nested table's are that table's business); true otherwise.
(function (node) {
  const own = (el) => el.closest('table') === node;
  const found = [];
  if ((node.getAttribute('summary') || '').trim()) found.push(node);
  if (node.caption && node.caption.textContent.trim()) found.push(node.caption);
  for (const row of node.rows) {
    for (const cell of row.cells) {
      if (cell.localName === 'th' || cell.hasAttribute('scope') || cell.hasAttribute('headers')) found.push(cell);
    }
  }
  this.relatedNodes(found.filter(own));
  return found.length === 0;
})
