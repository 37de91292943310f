// Function expression (node), the matches of a11y-table-nested: returns true for a table that
// sits in a cell of another table when both hold data: each keeps its table semantics and has
// header cells or a caption of its own.
/* global axe */
(function (node) {
  const { aria } = axe.commons;
  const isData = (table) => {
    if (!['table', 'grid', 'treegrid'].includes(aria.getRole(table))) return false;
    if (table.caption && table.caption.textContent.trim()) return true;
    return Array.from(table.rows).some((row) => Array.from(row.cells).some(
      (cell) => cell.localName === 'th' || ['columnheader', 'rowheader'].includes(aria.getRole(cell)),
    ));
  };
  const cell = node.parentElement && node.parentElement.closest('td, th');
  const outer = cell && cell.closest('table');
  return !!outer && isData(node) && isData(outer);
})
