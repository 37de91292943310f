/* global a11yProbe */
// Function expression (action, value): the forms the error-identification check submits. 'find' returns up to value forms of the document (a form, or role=form) with a visible, enabled required text field, text area or select (one with nothing chosen) and a visible, enabled submit control, those whose required fields are all empty first: [{id, label, novalidate, empty, fields: [{id, label, text, target, html}], target, html}]; 'empty' empties the required text fields of form value without events (their values kept) and returns how many it emptied; 'point' scrolls its submit control into the middle of the window and returns {x, y, formnovalidate}, or null when it is gone, hidden or something covers its centre; 'restore' puts the values back without events.
// Required: the required attribute, aria-required="true", or a label, aria-label or
// placeholder that ends with an asterisk or says "required". Left out: search forms (in
// role=search or a search element, or with one field only, of type search or named q,
// query, search or s), forms whose submit control says it deletes, pays, cancels and the like,
// and what is not rendered, disabled, read-only or inert.
function (action, value) {
  const key = Symbol.for('a11y.errorForms');
  const state = globalThis[key] || (globalThis[key] = {known: new Map(), values: new Map()});
  const TEXT_TYPES = /^(text|email|url|tel|number|password|search)$/;
  const REQUIRED = /\*\s*:?\s*$|\b(?:required|mandatory|obligatoire|obligatorio|obbligatorio|pflichtfeld|verplicht)\b/i;
  const SEARCH_NAMES = /^(q|query|search|s)$/i;
  // A submit control whose words say it spends, removes or ends something is not pressed, even
  // with its requests held: a script may still act with a GET, and a confirm() is accepted.
  const DESTRUCTIVE = /\b(?:delete|remove|erase|destroy|unsubscribe|cancel|close (?:my |your )?account|deactivate|buy|purchase|pay|checkout|transfer|donate|withdraw)\b/i;
  const FIELDS = 'input, select, textarea';
  const clean = (text) => (text || '').replace(/\s+/g, ' ').trim();
  const element = (id) => {
    const ref = state.known.get(id);
    const el = ref ? ref.deref() : null;
    return el && el.isConnected ? el : null;
  };
  const remember = (el) => {
    const id = a11yProbe.idOf(el);
    state.known.set(id, new WeakRef(el));
    return id;
  };
  const usable = (el, min) => {
    if (el.disabled || el.readOnly || el.closest('[inert]') || !a11yProbe.isRendered(el)) return false;
    const r = el.getBoundingClientRect();
    return r.width >= min && r.height >= min;
  };
  const referenced = (el, attribute) => (el.getAttribute(attribute) || '').split(/\s+/)
    .map((id) => (id ? document.getElementById(id) : null)).filter(Boolean);
  const labelText = (el) => clean([...(el.labels || [])].map((l) => l.innerText).join(' '))
    || clean(referenced(el, 'aria-labelledby').map((l) => l.innerText).join(' '))
    || clean(el.getAttribute('aria-label'));
  const textual = (el) => el.localName === 'textarea' || (el.localName === 'input' && TEXT_TYPES.test(el.type));
  const choosable = (el) => el.localName === 'select' && el.value === '';
  const required = (el) => el.required || el.getAttribute('aria-required') === 'true'
    || REQUIRED.test(labelText(el)) || REQUIRED.test(clean(el.getAttribute('placeholder')));
  const controls = (form) => (form.localName === 'form' ? [...form.elements] : [...form.querySelectorAll(FIELDS + ', button')]);
  const submitter = (form) => controls(form).find((el) => (
    (el.localName === 'button' && el.type === 'submit') || (el.localName === 'input' && /^(submit|image)$/.test(el.type))
  ) && usable(el, 4)) || null;
  const search = (form) => {
    if (form.closest('[role="search"], search')) return true;
    const fields = controls(form).filter((el) => textual(el) && el.type !== 'password' && el.type !== 'hidden');
    return fields.length === 1 && (fields[0].type === 'search' || SEARCH_NAMES.test(fields[0].name || ''));
  };
  if (action === 'find') {
    const found = [];
    for (const form of document.querySelectorAll('form, [role="form"]')) {
      if (form.localName !== 'form' && form.closest('form')) continue;
      if (!a11yProbe.isRendered(form) || form.closest('[inert]') || search(form) || !submitter(form)) continue;
      const button = submitter(form);
      if (DESTRUCTIVE.test(clean(`${button.innerText || ''} ${button.value || ''} ${button.getAttribute('aria-label') || ''}`))) continue;
      const fields = controls(form).filter((el) => el.matches(FIELDS) && (textual(el) || choosable(el))
        && usable(el, 2) && required(el)).slice(0, 12);
      if (!fields.length) continue;
      const id = remember(form);
      found.push({
        id, label: a11yProbe.label(form), novalidate: form.localName === 'form' && form.noValidate,
        empty: fields.every((el) => el.value === ''),
        fields: fields.map((el) => ({
          id: remember(el), label: a11yProbe.label(el),
          text: (labelText(el) || clean(el.getAttribute('placeholder')) || el.name || '').replace(/\s*[*:]+\s*$/, '').slice(0, 40),
          ...a11yProbe.describe(el),
        })),
        ...a11yProbe.describe(form),
      });
    }
    // Forms as loaded with their required fields empty first: what a user meets on arrival.
    return found.filter((f) => f.empty).concat(found.filter((f) => !f.empty)).slice(0, value);
  }
  const form = element(value);
  if (!form) return null;
  if (action === 'empty') {
    let emptied = 0;
    for (const el of controls(form)) {
      if (!el.matches(FIELDS) || !textual(el) || !required(el) || !usable(el, 2)) continue;
      state.values.set(el, el.value);
      if (el.value !== '') {
        el.value = '';
        emptied += 1;
      }
    }
    return emptied;
  }
  if (action === 'restore') {
    for (const [el, before] of state.values) {
      if (el.isConnected && el.value !== before) el.value = before;
    }
    state.values.clear();
    return true;
  }
  if (action === 'point') {
    const button = submitter(form);
    if (!button) return null;
    const point = a11yProbe.pressPoint(button);
    return point && point.hit ? {x: point.x, y: point.y, formnovalidate: button.formNoValidate === true} : null;
  }
  return null;
}
