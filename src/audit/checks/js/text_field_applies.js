// Function expression (node), the matches of a11y-hint-described and a11y-red-border-invalid:
// returns true for an enabled, editable text field, text area or select (not a button, choice,
// file, range or colour input).
(function (node) {
  const SKIP = ['hidden', 'submit', 'button', 'reset', 'image', 'checkbox', 'radio', 'file', 'range', 'color'];
  if (node.localName === 'input' && SKIP.includes(node.type)) return false;
  return !node.disabled && !node.readOnly;
})
