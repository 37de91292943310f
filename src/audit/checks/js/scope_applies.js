// Function expression (node), the matches of a11y-scope-direction: returns true for a table
// element with table semantics, two rows or more and a th of its own with a scope attribute.
/* global axe */
(function (node) {
  if (!['table', 'grid', 'treegrid'].includes(axe.commons.aria.getRole(node)) || node.rows.length < 2) return false;
  return Array.from(node.rows).some((row) => Array.from(row.cells).some(
    (cell) => cell.localName === 'th' && cell.hasAttribute('scope'),
  ));
})
