/* global a11yProbe */
// Function expression (action, value): the password and code fields the paste-blocked check pastes into. 'find' lists up to value of them in document order (visible, enabled, editable password fields and fields whose autocomplete says one-time-code, current-password or new-password): [{id, label, text, code, alternative, target, html}]; 'paste' focuses field value[0] and dispatches a cancelable paste of the text value[1] on it, returning {focused, cancelled, changed} (changed: the field, or another field of its form, has another value since the paste); 'changed' answers that again for field value (after the page's timers ran); 'restore' puts back the values the paste changed, without events, and takes focus off the field.
// `alternative` is the text of a control that seems to offer another way to sign in (a
// passkey, a link by email, another account's sign-in): 3.3.8 allows a refused paste when an
// alternative method needs no cognitive function test, so then a person decides.
// A synthetic paste has no default action: text reaches the field only when the page puts it
// there itself. So a cancelled paste that changed no value is one the page refused.
function (action, value) {
  const key = Symbol.for('a11y.pasteFields');
  const state = globalThis[key] || (globalThis[key] = {known: new Map(), tried: new Map()});
  const TEXT_TYPES = /^(text|password|tel|number|email|url|search)$/;
  const SECRET_TOKENS = /^(one-time-code|current-password|new-password)$/;
  const MAX_COMPARED = 200;
  const element = (id) => {
    const ref = state.known.get(id);
    const el = ref ? ref.deref() : null;
    return el && el.isConnected ? el : null;
  };
  const tokens = (el) => (el.getAttribute('autocomplete') || '').toLowerCase().split(/\s+/).filter(Boolean);
  // The fields whose values a page's own paste handler may fill instead of the target (a code
  // split over one box a digit): the field's form, or the document's fields without one.
  const neighbours = (el) => {
    const all = el.form ? [...el.form.elements] : [...document.querySelectorAll('input, textarea')];
    return all.filter((f) => (f.localName === 'textarea' || (f.localName === 'input' && f.type !== 'file')))
      .slice(0, MAX_COMPARED);
  };
  const values = (fields) => new Map(fields.map((f) => [f, f.value]));
  const differs = (before) => [...before].some(([f, was]) => f.isConnected && f.value !== was);
  if (action === 'find') {
    const ALTERNATIVE = /\b(?:(?:sign|log)\s*in|continue) with\b|pass\s*key|magic link|security key|single sign-on|\bSSO\b|without (?:a )?password|e-?mail me a (?:link|code)|send me a (?:link|code)/i;
    const offer = [...document.querySelectorAll('a[href], button, [role="button"], input[type="submit"], input[type="button"]')]
      .map((c) => (c.innerText || c.value || c.getAttribute('aria-label') || '').replace(/\s+/g, ' ').trim())
      .find((t) => t.length <= 80 && ALTERNATIVE.test(t));
    const found = [];
    for (const el of document.querySelectorAll('input, textarea')) {
      if (found.length >= value) break;
      const secret = tokens(el).some((t) => SECRET_TOKENS.test(t));
      if (el.localName === 'input' && !TEXT_TYPES.test(el.type)) continue;
      if (el.type !== 'password' && !secret) continue;
      if (el.disabled || el.readOnly || el.closest('[inert]') || !a11yProbe.isRendered(el)) continue;
      const r = el.getBoundingClientRect();
      if (r.width < 2 || r.height < 2) continue;
      const id = a11yProbe.idOf(el);
      state.known.set(id, new WeakRef(el));
      const text = [...(el.labels || [])].map((l) => l.innerText).join(' ') || el.getAttribute('aria-label')
        || el.getAttribute('placeholder') || el.name || '';
      found.push({id, label: a11yProbe.label(el), text: text.replace(/\s+/g, ' ').trim().slice(0, 60),
        code: tokens(el).includes('one-time-code'), alternative: offer || '', ...a11yProbe.describe(el)});
    }
    return found;
  }
  const id = Array.isArray(value) ? value[0] : value;
  const el = element(id);
  if (!el) return null;
  if (action === 'paste') {
    const fields = neighbours(el);
    if (!fields.includes(el)) fields.push(el);
    const original = values(fields);
    el.focus({preventScroll: true});
    if (a11yProbe.deepActive() !== el) {
      state.tried.set(id, {original, baseline: original});
      return {focused: false, cancelled: false, changed: false};
    }
    // What focusing did (a handler that clears the field) is not what the paste did.
    const baseline = values(fields);
    state.tried.set(id, {original, baseline});
    const data = new DataTransfer();
    data.setData('text/plain', value[1]);
    const paste = new ClipboardEvent('paste', {bubbles: true, cancelable: true, composed: true, clipboardData: data});
    const allowed = el.dispatchEvent(paste);
    return {focused: true, cancelled: !allowed || paste.defaultPrevented, changed: differs(baseline)};
  }
  const tried = state.tried.get(id);
  if (action === 'changed') return tried ? differs(tried.baseline) : false;
  if (action === 'restore') {
    if (tried) {
      for (const [f, was] of tried.original) {
        if (f.isConnected && f.value !== was) f.value = was;
      }
      state.tried.delete(id);
    }
    if (a11yProbe.deepActive() === el) el.blur();
    return true;
  }
  return null;
}
