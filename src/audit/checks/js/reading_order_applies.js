// Function expression (node), the matches of a11y-reading-order: returns true for a flex or
// grid container that reverses its direction or reorders a child with the order property,
// for an element with two or more children floated against the direction of text (right, in
// a left-to-right page), and for an absolutely positioned or fixed element with 20 or more characters of text of its
// own that is not a tooltip, menu, dialog, alert or list box (which float by design).
// Only elements under the body count, the shadow trees under it included (the rule selects
// every element: axe matches "body *" more slowly than this). Every element is asked about as
// a node and, before that, as its parent's child: its computed style is read once for both
// (kept for the run).
/* global axe */
(function (node) {
  const body = node.ownerDocument.body;
  if (!body || body.localName !== 'body' || node === body) return false;
  let top = node;
  while (top.getRootNode() instanceof ShadowRoot) top = top.getRootNode().host;
  if (top !== body && !body.contains(top)) return false;
  const styles = axe._cache.get('a11y-reading-order-styles', () => new WeakMap());
  const styleOf = (el) => {
    let style = styles.get(el);
    if (!style) styles.set(el, (style = window.getComputedStyle(el)));
    return style;
  };
  const style = styleOf(node);
  const children = node.children.length >= 2 ? Array.from(node.children) : [];
  if (/flex|grid/.test(style.display) && children.length) {
    if (/reverse/.test(style.flexDirection)) return true;
    if (children.some((child) => styleOf(child).order !== '0')) return true;
  }
  // Children floated against the direction of text line up in reverse.
  const against = style.direction === 'rtl' ? 'left' : 'right';
  if (children.filter((child) => styleOf(child).float === against).length >= 2) return true;
  if (!['absolute', 'fixed'].includes(style.position)) return false;
  if (node.closest('[role="tooltip"], [role="menu"], [role="listbox"], [role="dialog"], [role="alertdialog"], [role="alert"], dialog')) {
    return false;
  }
  return node.textContent.replace(/\s+/g, ' ').trim().length >= 20;
})
