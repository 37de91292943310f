// Function expression (node, virtualNode), the matches of a11y-aria-prohibited-use: the
// elements axe's aria-prohibited-attr applies to (its own matches) that carry one of the
// properties a role can prohibit, with a value.
/* global axe */
(function (node, virtualNode) {
  const names = ['aria-label', 'aria-labelledby', 'aria-braillelabel', 'aria-roledescription', 'aria-brailleroledescription'];
  if (!names.some((name) => (virtualNode.attr(name) || '').trim() !== '')) return false;
  const rule = axe._audit.rules.find((item) => item.id === 'aria-prohibited-attr');
  return !rule || typeof rule.matches !== 'function' || rule.matches(node, virtualNode);
})
