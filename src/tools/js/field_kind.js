// Function expression (this = form field): returns how element_fill_form fills it: select, checkbox, radio, file or text.
function () {
  const type = (this.getAttribute('type') || '').toLowerCase();
  if (this.localName === 'select') return 'select';
  if (this.localName === 'input' && ['checkbox', 'radio', 'file'].includes(type)) return type;
  const role = (this.getAttribute('role') || '').trim().split(/\s+/)[0];
  if (['checkbox', 'switch', 'menuitemcheckbox'].includes(role)) return 'checkbox';
  if (['radio', 'menuitemradio'].includes(role)) return 'radio';
  return 'text';
}
