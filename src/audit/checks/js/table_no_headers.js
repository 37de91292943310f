// Function expression (node), the axe check of a11y-table-no-headers, run on a table element
// that is not presentational: returns false when it holds data (at least two rows of at least
// two short text cells, and no images, controls, block content or nested tables) and has no
// header cell at all (no th, no header role, no scope or headers attribute); true otherwise.
// A cell that is only a bracket or a separator ("(", ")", ",") makes it code set out in cells
// (a function's signature in generated documentation), not data.
/* global axe */
(function (node) {
  const { aria, dom } = axe.commons;
  const PHRASING = new Set([
    'a', 'abbr', 'b', 'bdi', 'bdo', 'br', 'cite', 'code', 'data', 'del', 'dfn', 'em', 'font', 'i',
    'ins', 'kbd', 'mark', 'q', 's', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u', 'var', 'wbr',
  ]);
  const cells = Array.from(node.rows).flatMap((row) => Array.from(row.cells));
  const heads = cells.filter(
    (cell) => cell.localName === 'th' || cell.hasAttribute('scope') || cell.hasAttribute('headers')
      || ['columnheader', 'rowheader'].includes(aria.getRole(cell)),
  );
  if (heads.length) return true;
  // What a cell holds: '' (empty), 'text' (short text, inline markup only), 'link' (text that
  // is all links), or 'other' (anything a layout table holds: images, controls, blocks).
  const kind = (cell) => {
    const text = cell.textContent.replace(/\s+/g, ' ').trim();
    const elements = Array.from(cell.querySelectorAll('*'));
    if (elements.some((el) => !PHRASING.has(el.localName))) return 'other';
    if (!text) return '';
    if (text.length > 150) return 'other';
    const linked = Array.from(cell.querySelectorAll('a')).map((a) => a.textContent).join('').replace(/\s+/g, '');
    return linked && linked.length >= text.replace(/\s+/g, '').length ? 'link' : 'text';
  };
  if (cells.some((cell) => /^[()[\]{},;]+$/.test(cell.textContent.replace(/\s+/g, '')))) return true;
  const rows = Array.from(node.rows).filter((row) => dom.isVisibleOnScreen(row));
  const kinds = rows.map((row) => Array.from(row.cells).map(kind));
  const all = kinds.flat();
  if (all.includes('other')) return true;
  const text = all.filter((k) => k === 'text').length;
  const filled = all.filter((k) => k).length;
  const dataRows = kinds.filter((row) => row.filter((k) => k === 'text').length >= 2).length;
  if (dataRows < 2 || text * 2 < filled) return true;
  return false;
})
