/* global a11yProbe */
// Function expression (action, value): the controls that may turn keyboard shortcuts off or remap them. 'find' lists those visible now whose name mentions shortcuts, hot keys, the keyboard or keys (links: shortcuts, hot keys, the keyboard) and that are not among value (ids already known): [{id, label, text, kind: 'toggle'|'button'|'select'|'link'}]; 'point' scrolls control value into view and returns the viewport point to click ({x, y}, its visible label's when the control itself is hidden), or null.
function (action, value) {
  const key = Symbol.for('a11y.shortcutControls');
  const known = globalThis[key] || (globalThis[key] = new Map());
  const WORDS = /shortcut|hot\s?-?keys?|keyboard|access\s?-?keys?|\bkeys?\b|remap/i;
  const LINK_WORDS = /shortcut|hot\s?-?keys?|keyboard/i;
  const visible = (el) => {
    if (!a11yProbe.isRendered(el)) return false;
    const r = el.getBoundingClientRect();
    return r.width >= 2 && r.height >= 2
      && (!el.checkVisibility || el.checkVisibility({opacityProperty: true, visibilityProperty: true}));
  };
  const labelOf = (el) => [...(el.labels || [])].find(visible) || null;
  const name = (el) => [el.getAttribute('aria-label'), ...[...(el.labels || [])].map((l) => l.innerText),
    el.localName === 'input' ? (/^(button|submit|reset)$/.test(el.type) ? el.value : '') : el.innerText,
    el.getAttribute('title')]
    .filter(Boolean).join(' ').replace(/\s+/g, ' ').trim();
  if (action === 'find') {
    const found = [];
    const controls = document.querySelectorAll('input[type="checkbox"], input[type="radio"], input[type="button"], '
      + 'input[type="submit"], button, select, [role="switch"], [role="checkbox"], [role="button"], [role="menuitemcheckbox"], '
      + 'a[href]');
    for (const el of controls) {
      if (found.length >= 6 || el.disabled || el.closest('[inert]')) continue;
      if (!visible(el) && !labelOf(el)) continue;
      const text = name(el);
      if (!(el.localName === 'a' ? LINK_WORDS : WORDS).test(text)) continue;
      const id = a11yProbe.idOf(el);
      if (value.includes(id)) continue;
      known.set(id, new WeakRef(el));
      const kind = el.localName === 'a' ? 'link' : el.localName === 'select' ? 'select'
        : /^(checkbox|radio)$/.test(el.type) || /^(switch|checkbox|menuitemcheckbox)$/.test(el.getAttribute('role') || '') ? 'toggle' : 'button';
      found.push({id, label: a11yProbe.label(el), text: text.slice(0, 80), kind, ...a11yProbe.describe(el)});
    }
    return found;
  }
  const ref = known.get(value);
  const el = ref ? ref.deref() : null;
  if (!el || !el.isConnected) return null;
  const spot = visible(el) ? el : labelOf(el);
  if (!spot) return null;
  spot.scrollIntoView({block: 'center', inline: 'center'});
  const r = spot.getBoundingClientRect();
  return {x: r.x + Math.min(r.width / 2, 8), y: r.y + r.height / 2};
}
