// Function expression (node), the matches of a11y-table-no-headers and a11y-table-columns:
// returns true for a table element that keeps its table semantics (not role presentation or
// none, unless focusable or given a global ARIA property) and has at least two rows.
/* global axe */
(function (node) {
  const role = axe.commons.aria.getRole(node);
  return ['table', 'grid', 'treegrid'].includes(role) && node.rows.length >= 2;
})
