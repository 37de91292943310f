// Function expression (node), the matches of a11y-field-name-unique: returns true for an
// enabled form field (not a button, radio button or hidden input) that belongs to a form with
// another such field.
(function (node) {
  if (!node.form || node.disabled) return false;
  const SKIP = ['hidden', 'submit', 'button', 'reset', 'image', 'radio'];
  const fields = Array.from(node.form.elements).filter(
    (el) => ['input', 'select', 'textarea'].includes(el.localName) && !SKIP.includes(el.type),
  );
  return fields.length >= 2 && fields.includes(node);
})
