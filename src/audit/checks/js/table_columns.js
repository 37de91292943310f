// Function expression (node), the axe check of a11y-table-columns, run on a table with table
// semantics: returns undefined (needs review, the odd rows as related nodes) when the table
// holds data (header cells, a caption, or axe-core's data table heuristics) and some of its
// visible rows span fewer or more columns than the others, counting colspan and the rowspan
// of cells above; true otherwise.
/* global axe */
(function (node) {
  const { table, dom } = axe.commons;
  const data = node.caption || Array.from(node.rows).some((row) => Array.from(row.cells).some(
    (cell) => cell.localName === 'th',
  )) || table.isDataTable(node);
  if (!data) return true;
  const grid = table.toGrid(node);
  const rows = Array.from(node.rows);
  const widths = grid.map((cells) => cells.filter(Boolean).length);
  const shown = rows.map((row, y) => [row, widths[y]]).filter(([row, width]) => width > 0 && dom.isVisibleOnScreen(row));
  if (shown.length < 2) return true;
  const counts = new Map();
  for (const [, width] of shown) counts.set(width, (counts.get(width) || 0) + 1);
  if (counts.size < 2) return true;
  const usual = Array.from(counts.entries()).sort((a, b) => b[1] - a[1] || b[0] - a[0])[0][0];
  this.relatedNodes(shown.filter(([, width]) => width !== usual).map(([row]) => row));
  return undefined;
})
