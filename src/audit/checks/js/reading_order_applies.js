// Function expression (node), the matches of a11y-reading-order: returns true for a flex or
// grid container that reverses its direction or reorders a child with the order property,
// for an element with two or more children floated against the direction of text (right, in
// a left-to-right page), and for an absolutely positioned or fixed element with 20 or more characters of text of its
// own that is not a tooltip, menu, dialog, alert or list box (which float by design).
(function (node) {
  const style = window.getComputedStyle(node);
  if (/flex|grid/.test(style.display) && node.children.length >= 2) {
    if (/reverse/.test(style.flexDirection)) return true;
    if (Array.from(node.children).some((child) => window.getComputedStyle(child).order !== '0')) return true;
  }
  // Children floated against the direction of text line up in reverse.
  const against = style.direction === 'rtl' ? 'left' : 'right';
  if (Array.from(node.children).filter((child) => window.getComputedStyle(child).float === against).length >= 2) return true;
  if (!['absolute', 'fixed'].includes(style.position)) return false;
  if (node.closest('[role="tooltip"], [role="menu"], [role="listbox"], [role="dialog"], [role="alertdialog"], [role="alert"], dialog')) {
    return false;
  }
  return node.textContent.replace(/\s+/g, ' ').trim().length >= 20;
})
