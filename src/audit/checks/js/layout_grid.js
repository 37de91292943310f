// Function expression (node), the axe check of a11y-layout-grid, run on a div or section, or a
// pre element: for a box, its rows are its children (three or more, stacked, each the same
// number, two or more, of short text cells side by side) or, in a flat CSS grid or flex box,
// its children in lines by their top edge; when those rows line up in columns, it returns false
// if the first row is set apart in bold as a header row (a data table drawn with boxes, with no
// table semantics) and undefined otherwise. For a pre that is not code (nor a program listing
// or terminal session), undefined when three or more lines are split into the same columns by
// runs of spaces or tabs. True otherwise.
/* global axe */
(function (node) {
  const { dom } = axe.commons;
  const clean = (text) => text.replace(/\s+/g, ' ').trim();
  if (node.localName === 'pre') {
    // Code, program listings and terminal sessions line things up too: not data.
    if (node.querySelector('code, samp, kbd, var, a')) return true;
    const CODE = /code|highlight|language-|lang-|prettyprint|hljs|source|listing|synopsis|screen|console|terminal|shell|syntax/i;
    if (CODE.test(`${node.className} ${node.id} ${node.parentElement ? node.parentElement.className : ''}`)) return true;
    const lines = (node.innerText || node.textContent).split('\n').map((line) => line.replace(/\t/g, '        ').replace(/\s+$/, ''))
      .filter((line) => line.trim());
    if (lines.filter((line) => /[{}();=<>$#]|\w\(/.test(line)).length * 3 > lines.length) return true;
    // Where each line's columns start: after a run of two or more spaces, before a letter or digit.
    const starts = lines.map((line) => {
      const found = [];
      const gap = / {2,}(?=[\p{L}\p{N}])/gu;
      let match;
      while ((match = gap.exec(line))) found.push(match.index + match[0].length);
      return found;
    });
    const counts = new Map();
    for (const positions of starts) for (const at of positions) counts.set(at, (counts.get(at) || 0) + 1);
    const rows = starts.filter((positions) => positions.some((at) => counts.get(at) >= 3)).length;
    return rows >= 3 ? undefined : true;
  }

  const SHORT = 60;
  const BLOCKED = 'a, button, input, select, textarea, img, svg, video, audio, iframe, object, h1, h2, h3, h4, h5, h6, p, ul, ol, table, [role]';
  const cellOk = (el) => {
    const text = clean(el.textContent);
    return !!text && text.length <= SHORT && !el.querySelector(BLOCKED) && !el.matches(BLOCKED);
  };
  const shown = (el) => dom.isVisibleOnScreen(el);
  const rect = (el) => el.getBoundingClientRect();
  // Cells of one row side by side on one line, left to right.
  const sideBySide = (cells) => cells.every((cell, i) => {
    if (!i) return true;
    const a = rect(cells[i - 1]);
    const b = rect(cell);
    return b.left >= a.right - 1 && b.top < a.bottom && a.top < b.bottom;
  });
  // Columns line up: each column's cells share a left edge, a right edge or a centre.
  const aligned = (rows) => rows[0].every((_, j) => {
    const boxes = rows.map((cells) => rect(cells[j]));
    const near = (values) => Math.max(...values) - Math.min(...values) <= 3;
    return near(boxes.map((b) => b.left)) || near(boxes.map((b) => b.right)) || near(boxes.map((b) => (b.left + b.right) / 2));
  });
  const weight = (el) => parseInt(window.getComputedStyle(el).fontWeight, 10);
  const textWeight = (el) => {
    const walker = el.ownerDocument.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) if (/\S/.test(walker.currentNode.data)) return weight(walker.currentNode.parentElement);
    return weight(el);
  };
  const headerRow = (rows) => rows[0].every((cell) => textWeight(cell) >= 600)
    && rows.slice(1).every((cells) => cells.every((cell) => textWeight(cell) < 600));
  const stacked = (rows) => rows.every((cells, i) => !i || rect(cells[0]).top >= rect(rows[i - 1][0]).bottom - 1);

  const children = Array.from(node.children).filter(shown);
  // Rows as child elements, cells as their children.
  const rows = children.map((row) => Array.from(row.children).filter(shown));
  const width = rows.length ? rows[0].length : 0;
  if (rows.length >= 3 && width >= 2 && rows.every((cells) => cells.length === width && cells.every(cellOk))
    && rows.every(sideBySide) && stacked(rows) && aligned(rows)) {
    if (!headerRow(rows)) return undefined;
    this.data({ rows: rows.length - 1, columns: width });
    return false;
  }
  // A flat grid: the cells are the children, in lines by their top edge.
  const display = window.getComputedStyle(node).display;
  if (!/grid|flex/.test(display) || children.length < 6 || !children.every(cellOk)) return true;
  const lines = [];
  for (const cell of children) {
    const top = Math.round(rect(cell).top);
    const line = lines.find((candidate) => Math.abs(candidate.top - top) <= 2);
    if (line) line.cells.push(cell);
    else lines.push({ top, cells: [cell] });
  }
  const flat = lines.map((line) => line.cells);
  const columns = flat[0].length;
  if (flat.length >= 3 && columns >= 2 && flat.every((cells) => cells.length === columns) && flat.every(sideBySide) && aligned(flat)) {
    if (!headerRow(flat)) return undefined;
    this.data({ rows: flat.length - 1, columns });
    return false;
  }
  return true;
})
