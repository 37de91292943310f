// Function expression (node, options, virtualNode), the evaluate of a11y-aria-prohibited-use:
// false (fails) when axe's aria-prohibited-attr evaluation, as a11y's override corrects it,
// finds a property the element's role prohibits, whether it fails it (no text) or asks for
// review (text that may still say it); true otherwise. Sets the same data (the prohibited
// properties) for the message.
/* global axe */
(function (node, options, virtualNode) {
  const check = axe._audit.checks['aria-prohibited-attr'];
  if (!check || typeof check.evaluate !== 'function') return true;
  const verdict = check.evaluate.call(this, node, check.options || {}, virtualNode);
  return !(verdict === true || verdict === undefined);
})
