// Function expression (node), the matches of a11y-field-boundary-contrast: returns true for an
// enabled, editable text field, text area or select, and for a checkbox or radio button the
// author drew (appearance: none): the controls a user must find by their outline. Disabled
// controls are inactive (WCAG 1.4.11 exempts them), read-only ones are shown, not used.
(function (node) {
  if (node.disabled || node.readOnly) return false;
  const type = node.localName === 'input' ? (node.getAttribute('type') || 'text').toLowerCase() : '';
  if (['hidden', 'submit', 'button', 'reset', 'image', 'file', 'range', 'color'].includes(type)) return false;
  if (type === 'checkbox' || type === 'radio') {
    const style = getComputedStyle(node);
    return (style.appearance || style.webkitAppearance) === 'none';
  }
  const box = node.getBoundingClientRect();
  return box.width >= 8 && box.height >= 8;
})
