// Function expression (this = element): returns whether a person could type into it (enabled, not read-only, a text-like control or contenteditable).
function () {
  if (this.disabled === true || this.matches(':disabled') || this.closest('[aria-disabled=true]')) return false;
  if (this.getAttribute('aria-readonly') === 'true') return false;
  if (this.localName === 'textarea') return !this.readOnly;
  if (this.localName === 'input') {
    const type = (this.getAttribute('type') || 'text').toLowerCase();
    return !this.readOnly && !['checkbox', 'radio', 'file', 'button', 'submit', 'reset', 'image', 'hidden', 'range', 'color'].includes(type);
  }
  return this.isContentEditable;
}
