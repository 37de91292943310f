// Whole script, an expression: returns the helpers H every check condition gets (norm, visible, enabled, text, value, checked, state).
(() => {
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const visible = (el) => {
    if (!el || !el.isConnected) return false;
    if (el.checkVisibility && !el.checkVisibility({visibilityProperty: true})) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const enabled = (el) => !(el.matches(':disabled') || el.closest('[aria-disabled="true"]'));
  const isField = (el) => el.matches('input, textarea, select');
  const deepText = (root) => {
    let text = root.innerText !== undefined ? root.innerText : root.textContent;
    for (const host of root.querySelectorAll('*')) {
      if (host.shadowRoot) for (const child of host.shadowRoot.children) text += '\n' + deepText(child);
    }
    return text || '';
  };
  const text = (el) => norm(isField(el) ? el.value : deepText(el));
  const value = (el) => {
    if (isField(el)) return el.value;
    if (el.isContentEditable) return el.innerText;
    return el.getAttribute('aria-valuenow') ?? el.getAttribute('value') ?? '';
  };
  const checked = (el) => {
    if (el.matches('input[type=checkbox], input[type=radio]')) return el.indeterminate ? 'mixed' : (el.checked ? 'checked' : 'unchecked');
    if (el.localName === 'option') return el.selected ? 'checked' : 'unchecked';
    const aria = el.getAttribute('aria-checked') ?? el.getAttribute('aria-pressed') ?? el.getAttribute('aria-selected');
    return aria === 'true' ? 'checked' : aria === 'mixed' ? 'mixed' : 'unchecked';
  };
  const state = (el) => !el ? null : visible(el) ? 'visible' : 'hidden';
  return {norm, visible, enabled, text, deepText, value, checked, state};
})()
