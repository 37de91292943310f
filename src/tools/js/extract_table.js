// Function expression (use headers, max rows; this = table or a container of one): returns {columns, headerRows, total, rows} with spans expanded into a grid.
// Works on <table> and ARIA tables/grids; throws 'the element is not a table and contains none'.
function (useHeaders, maxRows) {
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const ARIA = '[role=table], [role=grid], [role=treegrid]';
  let table = this;
  if (table.localName !== 'table' && !table.matches(ARIA)) {
    table = table.querySelector('table') || table.querySelector(ARIA);
    if (!table) throw new Error('the element is not a table and contains none');
  }
  let rows;
  if (table.localName === 'table') {
    rows = [...table.rows].map((r) => ({
      head: r.parentElement.localName === 'thead',
      cells: [...r.cells].map((c) => ({text: norm(c.innerText), header: c.localName === 'th',
                                        colspan: c.colSpan, rowspan: c.rowSpan})),
    }));
  } else {
    const own = (el, sel) => [...el.querySelectorAll(sel)].filter((e) => e.closest(ARIA) === table);
    rows = own(table, '[role=row]').map((r) => {
      const cells = [...r.querySelectorAll('[role=cell], [role=gridcell], [role=columnheader], [role=rowheader]')]
        .filter((c) => c.closest('[role=row]') === r);
      return {head: false, cells: cells.map((c) => ({text: norm(c.innerText), header: c.getAttribute('role') === 'columnheader',
        colspan: +c.getAttribute('aria-colspan') || 1, rowspan: +c.getAttribute('aria-rowspan') || 1}))};
    });
  }
  const grid = rows.map(() => []);
  rows.forEach((row, r) => {
    let c = 0;
    for (const cell of row.cells) {
      while (grid[r][c] !== undefined) c++;
      const colspan = Math.min(Math.max(cell.colspan || 1, 1), 1000);
      const rowspan = cell.rowspan === 0 ? rows.length - r : Math.min(Math.max(cell.rowspan || 1, 1), rows.length - r);
      for (let dr = 0; dr < rowspan; dr++) for (let dc = 0; dc < colspan; dc++) grid[r + dr][c + dc] = cell.text;
      c += colspan;
    }
  });
  const width = Math.max(0, ...grid.map((g) => g.length));
  const full = grid.map((g) => Array.from({length: width}, (_, i) => g[i] ?? ''));
  let headerRows = 0;
  if (useHeaders && rows.length) {
    while (headerRows < rows.length && rows[headerRows].head) headerRows++;
    if (!headerRows) while (headerRows < rows.length - 1 && rows[headerRows].cells.length && rows[headerRows].cells.every((c) => c.header)) headerRows++;
    if (!headerRows) headerRows = 1;
  }
  const columns = [];
  for (let c = 0; c < width; c++) {
    const parts = [];
    for (let h = 0; h < headerRows; h++) { const t = full[h][c]; if (t && parts[parts.length - 1] !== t) parts.push(t); }
    columns.push(parts.join(' / '));
  }
  const body = full.slice(headerRows);
  return {columns, headerRows, total: body.length, rows: body.slice(0, maxRows)};
}
