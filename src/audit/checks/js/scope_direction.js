// Function expression (node), the axe check of a11y-scope-direction, run on a table with
// header cells: returns false (the cells as related nodes) when a th says scope="col" while it
// starts a data row whose column holds only other row headers, or scope="row" while it sits
// in a row of headers above a column of data cells: the scope points away from the cells it
// labels, unless every cell it would label names its headers with a headers attribute, which
// screen readers follow instead. True otherwise.
/* global axe */
(function (node) {
  const grid = axe.commons.table.toGrid(node);
  const isHeader = (cell) => !!cell && cell.localName === 'th';
  const hasText = (cell) => !!cell && /[\p{L}\p{N}]/u.test(cell.textContent);
  // Empty cells (the corner above a column of row headers) take no side.
  const blank = (cell) => !cell || (!isHeader(cell) && !hasText(cell));
  // The rows of headers at the top of the table, before the first row with a data cell.
  let top = 0;
  while (top < grid.length && grid[top].every((cell) => blank(cell) || isHeader(cell))) top += 1;
  // Cells that name their headers with a headers attribute do not use scope at all.
  const explicit = (cell) => !!(cell.getAttribute('headers') || '').trim();
  const wrong = [];
  const seen = new Set();
  grid.forEach((row, y) => {
    row.forEach((cell, x) => {
      if (!cell || seen.has(cell) || !isHeader(cell) || !cell.hasAttribute('scope')) return;
      seen.add(cell);
      const scope = cell.getAttribute('scope').trim().toLowerCase();
      // The other cells of its column, with their row numbers.
      const column = grid.map((other, i) => [i, other[x]]).filter(([i, other]) => i !== y && other && other !== cell);
      if (scope === 'col') {
        // A header that starts a data row (only headers to its left, data to its right) and
        // whose column, below the header rows, holds headers only: it is a row header.
        if (y < top) return;
        const left = row.slice(0, x).every((other) => blank(other) || isHeader(other));
        const data = row.slice(x + 1).some((other) => other && !isHeader(other) && hasText(other));
        const below = column.filter(([i, other]) => i >= top && !blank(other)).map(([, other]) => other);
        const rowHeaders = below.length > 0 && below.every(isHeader);
        const cells = row.slice(x + 1).filter((other) => other && !isHeader(other) && hasText(other));
        if (left && data && rowHeaders && !cells.every(explicit)) wrong.push(cell);
      } else if (scope === 'row') {
        // A header in a row of headers (two or more) above data: it labels its column.
        const unique = new Set(row.filter(Boolean));
        if (unique.size < 2 || !row.every((other) => blank(other) || isHeader(other))) return;
        const cells = column.filter(([i, other]) => i > y && !isHeader(other) && hasText(other)).map(([, other]) => other);
        if (cells.length && y < top && !cells.every(explicit)) wrong.push(cell);
      }
    });
  });
  this.relatedNodes(wrong);
  return wrong.length === 0;
})
