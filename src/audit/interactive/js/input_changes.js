/* global a11yProbe */
// Function expression (action, value): the fields whose setting the change-on-input check changes. 'find' lists up to value of them in document order (visible, enabled, editable single selects with two options or more, and text fields that a listener js/input_listeners.js kept can hear): [{id, label, text, kind, key, advised, target, html}]; 'focus' focuses field value, caret at the end, and returns whether it has focus and (selects) whether its last option is chosen ({focused, last}); 'blur' takes focus off it (a changed field then fires change); 'value' returns its value; 'restore' puts value [id, value] back without events.
// `advised` says whether the text around the field (its labels, description, title, legend,
// the text of its container) warns that a choice acts at once (opens, loads, submits,
// redirects, a new window): WCAG 3.2.2 allows a change of context the user was told about.
function (action, value) {
  const key = Symbol.for('a11y.inputChanges');
  const known = globalThis[key] || (globalThis[key] = new Map());
  const TEXT_TYPES = /^(text|search|email|url|tel|number)$/;
  const ADVICE = /automatic|immediately|at once|as soon as|will (?:open|load|reload|navigate|submit|go|take you|redirect|update|change)|new (?:window|tab|page)|redirect/i;
  const element = (id) => {
    const ref = known.get(id);
    const el = ref ? ref.deref() : null;
    return el && el.isConnected ? el : null;
  };
  if (action === 'find') {
    // Without a script that hears it, changing a field's setting cannot change the context.
    const listeners = globalThis[Symbol.for('a11y.inputListeners')] || {nodes: new Set(), everywhere: true};
    const heard = (el) => {
      if (listeners.everywhere) return true;
      for (let node = el; node; node = node.parentNode || (node instanceof ShadowRoot ? node.host : null)) {
        if (listeners.nodes.has(node)) return true;
      }
      return false;
    };
    const found = [];
    for (const el of document.querySelectorAll('select, input, textarea')) {
      if (found.length >= value) break;
      if (el.disabled || el.readOnly || el.closest('[inert]') || !a11yProbe.isRendered(el)) continue;
      if (!heard(el)) continue;
      const r = el.getBoundingClientRect();
      if (r.width < 2 || r.height < 2) continue;
      let kind = null;
      if (el.localName === 'select' && !el.multiple && el.size <= 1 && el.options.length >= 2) kind = 'select';
      else if (el.localName === 'textarea' || (el.localName === 'input' && TEXT_TYPES.test(el.type))) kind = 'field';
      if (!kind) continue;
      const describedBy = (el.getAttribute('aria-describedby') || '').split(/\s+/)
        .map((id) => document.getElementById(id)).filter(Boolean);
      const legend = el.closest('fieldset') && el.closest('fieldset').querySelector('legend');
      const around = [...(el.labels || []), ...describedBy, legend, el.parentElement]
        .filter(Boolean).map((n) => n.innerText || '').join(' ').slice(0, 600) + ' ' + (el.title || '');
      const id = a11yProbe.idOf(el);
      known.set(id, new WeakRef(el));
      const text = [...(el.labels || [])].map((l) => l.innerText).join(' ') || el.getAttribute('aria-label')
        || el.getAttribute('placeholder') || el.name || '';
      found.push({id, kind, label: a11yProbe.label(el), text: text.replace(/\s+/g, ' ').trim().slice(0, 60),
        key: /^(number|tel)$/.test(el.type) ? '1' : 'a', advised: ADVICE.test(around), ...a11yProbe.describe(el)});
    }
    return found;
  }
  const el = element(Array.isArray(value) ? value[0] : value);
  if (!el) return null;
  if (action === 'focus') {
    el.focus();
    try {
      if (el.setSelectionRange) el.setSelectionRange(el.value.length, el.value.length);
    } catch {
      // email and number fields have no caret to place; typing still appends
    }
    return {focused: a11yProbe.deepActive() === el, last: el.localName === 'select' && el.selectedIndex === el.options.length - 1};
  }
  if (action === 'blur') {
    el.blur();
    return true;
  }
  if (action === 'value') return el.value;
  if (action === 'restore') {
    el.value = value[1];
    return true;
  }
  return null;
}
