// Function expression (wanted; this = radio): returns the radio of its group whose value or label is wanted, or null.
function (wanted) {
  let group = [this];
  if (this.localName === 'input' && this.name) {
    const root = this.form || this.getRootNode();
    group = [...root.querySelectorAll('input[type=radio]')].filter((r) => r.name === this.name && r.form === this.form);
  }
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim().toLowerCase();
  const label = (r) => norm((r.labels && [...r.labels].map((l) => l.textContent).join(' ')) || r.getAttribute('aria-label'));
  return group.find((r) => r.value === wanted) || group.find((r) => label(r) === norm(wanted)) || null;
}
