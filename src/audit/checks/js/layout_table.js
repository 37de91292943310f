// Function expression (part), called once when the checks are configured: returns the matches
// (node) or the evaluate (node) of a11y-layout-table. The matches take a visible table element
// with more than one row and a row of more than one cell; the evaluate answers false when the
// table lays out the page rather than holding data: it says so with role none or presentation,
// or it has no header cell, caption, summary, scope or headers attribute, axe-core's data table
// heuristics do not take it for data, and its cells hold page structure (a nested table, a
// heading, a form, a navigation or sectioning element, a frame); true otherwise, and for any
// table with data-table markup.
/* global axe */
(function (part) {
  const { dom, table } = axe.commons;
  const STRUCTURE = 'table, h1, h2, h3, h4, h5, h6, form, nav, main, header, footer, article, section, aside, ' +
    'iframe, [role="heading"], [role="navigation"], [role="main"], [role="banner"], [role="contentinfo"]';
  const DATA = 'th, caption, thead, tfoot, [scope], [headers], [role="columnheader"], [role="rowheader"]';
  const matches = function (node) {
    if (!dom.isVisibleOnScreen(node)) return false;
    const rows = Array.from(node.rows);
    return rows.length > 1 && rows.some((row) => row.cells.length > 1);
  };
  const own = (node, selector) => Array.from(node.querySelectorAll(selector)).filter(
    (el) => el.closest('table') === node,
  );
  const evaluate = function (node) {
    // Data-table markup in a table marked or used for layout is a11y-layout-table-markup's.
    if (node.hasAttribute('summary') || own(node, DATA).length) return true;
    const role = (node.getAttribute('role') || '').trim().toLowerCase().split(/\s+/)[0];
    if (role === 'none' || role === 'presentation') return false;
    if (role) return true;
    let data = true;
    try {
      data = table.isDataTable(node);
    } catch {
      data = true;
    }
    if (data) return true;
    const structure = Array.from(node.querySelectorAll(STRUCTURE)).some((el) => el.parentElement.closest('table') === node);
    return !structure;
  };
  return part === 'matches' ? matches : evaluate;
})
