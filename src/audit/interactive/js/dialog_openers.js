/* global a11yProbe */
// Function expression (max): the first max controls in document order that open a dialog ({id, target, html, label, text, how, hint, expanded, restore, restoreHow}), registered for reveal_before.js.
// A control opens a dialog when it says so (aria-haspopup="dialog", data-toggle="modal"),
// when an attribute of it names a dialog hidden now (aria-controls, data-target, href="#id",
// commandfor, popovertarget, data-*), or when a11y-revealed-state saw it reveal one. Never a
// link that navigates, a submit button, a field, or a control in a form that is not a
// type="button" one.
function (max) {
  const reveal = globalThis.a11yReveal || (globalThis.a11yReveal = {controls: new Map(), dialogOpeners: new Set()});
  const DIALOG = 'dialog, [role="dialog"], [role="alertdialog"]';
  const hiddenDialogs = new Map();
  for (const dialog of document.querySelectorAll(DIALOG)) {
    if (dialog.id && !a11yProbe.shown(dialog)) hiddenDialogs.set(dialog.id, dialog);
  }
  const names = (el) => {
    for (const attr of el.attributes) {
      if (!/^(aria-controls|href|commandfor|popovertarget|data-[\w-]+)$/.test(attr.name)) continue;
      for (const word of attr.value.trim().split(/\s+/)) {
        if (hiddenDialogs.has(word.replace(/^#/, ''))) return true;
      }
    }
    return false;
  };
  const native = (el) => el.localName === 'button' || (el.localName === 'input' && el.type === 'button')
    || (el.localName === 'a' && el.hasAttribute('href'));
  const navigates = (el) => el.localName === 'a' && el.hasAttribute('href')
    && !/^(#[\w-]*|javascript:.*)$/i.test(el.getAttribute('href').trim());
  const role = (el) => (el.getAttribute('role') || '').trim().split(/\s+/)[0];
  const found = [];
  const candidates = document.querySelectorAll('button, input[type="button"], a[href], [role="button"], [aria-haspopup]');
  for (const el of candidates) {
    if (found.length >= max) break;
    const haspopup = (el.getAttribute('aria-haspopup') || '').trim().toLowerCase();
    const toggle = (el.getAttribute('data-toggle') || el.getAttribute('data-bs-toggle') || '').toLowerCase();
    let hint = '';
    if (haspopup === 'dialog') hint = 'aria-haspopup';
    else if (toggle === 'modal') hint = 'data-toggle';
    else if (hiddenDialogs.size && names(el)) hint = 'names a dialog';
    else if (reveal.dialogOpeners.has(el)) hint = 'opened one before';
    else continue;
    if (navigates(el) || el.disabled || el.getAttribute('aria-disabled') === 'true' || !a11yProbe.shown(el)) continue;
    if (el.localName === 'input' ? el.type !== 'button' : el.localName === 'button' && el.type !== 'button' && el.form) continue;
    if (el.closest('form') && !(el.localName === 'button' && el.type === 'button') && role(el) !== 'button') continue;
    if (el.closest(DIALOG) && a11yProbe.shown(el.closest(DIALOG))) continue;
    const box = el.getBoundingClientRect();
    if (box.width < 1 || box.height < 1) continue;
    const id = a11yProbe.idOf(el);
    reveal.controls.set(id, el);
    found.push({
      ...a11yProbe.describe(el), id, how: native(el) ? 'key' : 'click', hint,
      restore: id, restoreHow: native(el) ? 'key' : 'click',
      label: a11yProbe.label(el), text: (el.innerText || el.value || el.getAttribute('aria-label') || '').trim().slice(0, 60),
      expanded: el.getAttribute('aria-expanded'),
    });
  }
  return found;
}
