// Function expression (node), the axe check of a11y-header-has-cells, run on an ARIA table,
// grid or treegrid that is not a table element: returns false (with the headers as related
// nodes) when a visible column header has no cell (data cell or row header) below it in its
// column, or a row header no other cell in its row; true otherwise, including a table without
// any data cell yet.
/* global axe */
(function (node) {
  const { aria, dom } = axe.commons;
  const TABLES = '[role~="table"], [role~="grid"], [role~="treegrid"], table';
  const CELLS = ['cell', 'gridcell'];
  const HEADERS = ['columnheader', 'rowheader'];
  const rows = Array.from(node.querySelectorAll('[role~="row"]')).filter(
    (row) => row.parentElement.closest(TABLES) === node && aria.getRole(row) === 'row',
  );
  const grid = rows.map((row) => {
    const cells = [];
    let column = 0;
    for (const el of row.querySelectorAll('[role]')) {
      const role = aria.getRole(el);
      if (el.parentElement.closest('[role~="row"]') !== row || !CELLS.concat(HEADERS).includes(role)) continue;
      const index = parseInt(el.getAttribute('aria-colindex'), 10);
      const start = index > 0 ? index - 1 : column;
      const span = Math.max(1, parseInt(el.getAttribute('aria-colspan'), 10) || 1);
      cells.push({ el, role, start, end: start + span });
      column = start + span;
    }
    return cells;
  });
  const data = grid.flat().filter((cell) => CELLS.includes(cell.role));
  if (!data.length) return true;
  const lonely = [];
  grid.forEach((cells, rowIndex) => {
    for (const header of cells) {
      if (!HEADERS.includes(header.role) || !dom.isVisibleToScreenReaders(header.el)) continue;
      // Any other cell of its row, or of its column in another row (a column of row headers
      // is the column header's too).
      const assigned =
        header.role === 'rowheader'
          ? cells.some((cell) => cell !== header)
          : grid.some((other, i) => i !== rowIndex && other.some(
            (cell) => cell.role !== 'columnheader' && cell.start < header.end && header.start < cell.end,
          ));
      if (!assigned) lonely.push(header.el);
    }
  });
  this.relatedNodes(lonely);
  return lonely.length === 0;
})
