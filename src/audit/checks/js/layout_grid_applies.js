// Function expression (node), the matches of a11y-layout-grid: returns true for a pre element,
// and for a div or section with three or more element children that is not itself a table,
// grid, list or widget (by element or role), nor inside one, a navigation, a menu or a form.
(function (node) {
  if (node.localName === 'pre') return true;
  if (node.children.length < 3) return false;
  return !node.closest(
    'table, ul, ol, dl, nav, form, menu, select, [role]:not([role="generic"]):not([role="none"]):not([role="presentation"])'
    + ':not([role="region"]):not([role="main"]):not([role="article"]):not([role="document"])',
  );
})
