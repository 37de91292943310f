// Function expression (node), the matches of a11y-layout-table-markup: returns true for a
// table used for layout: one whose role is presentation or none, or one without any header
// cell whose cells hold a nested table, a heading, a form, a navigation or a list of links,
// which only a layout puts in a table.
/* global axe */
(function (node) {
  const { aria } = axe.commons;
  if (['presentation', 'none'].includes(aria.getRole(node))) return true;
  if (!['table', 'grid', 'treegrid'].includes(aria.getRole(node))) return false;
  const cells = Array.from(node.rows).flatMap((row) => Array.from(row.cells));
  if (cells.some((cell) => cell.localName === 'th' || ['columnheader', 'rowheader'].includes(aria.getRole(cell)))) {
    return false;
  }
  const LAYOUT = 'table, h1, h2, h3, h4, h5, h6, form, nav, [role="heading"], [role="navigation"], [role="form"]';
  return cells.some((cell) => cell.querySelector(LAYOUT) || Array.from(cell.querySelectorAll('ul, ol')).some(
    (list) => list.querySelectorAll('a[href]').length >= 2,
  ));
})
