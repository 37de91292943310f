/* global a11yProbe */
// Function expression (max): the first max controls in document order that disclose hidden content in place ({id, target, html, label, text, how, hint, expanded, restore, restoreHow}; restore: what puts it back, itself or the tab selected now), registered for reveal_before.js; dialog openers are left to dialog_openers.js.
// A control discloses when it declares it (aria-expanded="false", aria-haspopup, aria-controls
// or data-toggle naming hidden content, popovertarget, a closed <details>' summary, a tab whose
// panel is hidden) or, a button outside forms, looks like a menu toggle (by its words, or a
// hidden element right after it). Never a link that navigates, a submit button, a field, a
// form's control unless a declared type="button" one, or a button whose words say it acts on
// the user's behalf.
function (max) {
  const reveal = globalThis.a11yReveal || (globalThis.a11yReveal = {controls: new Map(), dialogOpeners: new Set()});
  const DIALOG = 'dialog, [role="dialog"], [role="alertdialog"]';
  const RISKY = /\b(delete|remove|buy|purchase|checkout|pay|order|cart|basket|subscribe|sign ?(?:in|out|up)|log ?(?:in|out)|logout|login|register|send|submit|save|post|publish|like|follow|vote|rate|share|download|print|reset|clear|accept|agree|allow|reject|decline|deny|dismiss|close|cancel|play|pause|mute|next|prev|previous|copy|edit|upload|call|book|load|refresh|reload|retry|undo|redo|translate|apply|confirm|continue|start|stop|enable|disable|add|join|report|block|flag)\b/i;
  const TOGGLE = /\b(menu|nav|navigation|toggle|hamburger|burger|dropdown|drop-down|expand|collapse|accordion|disclosure|more|show|options|filters?|search|languages?)\b|(?:^|[-_])(menu|nav|toggle|dropdown|burger)(?:$|[-_])/i;
  const byId = (el, value) => (value || '').split(/\s+/).filter(Boolean)
    .map((id) => el.getRootNode().getElementById ? el.getRootNode().getElementById(id) : document.getElementById(id))
    .filter(Boolean);
  const refs = (el) => {
    const found = byId(el, el.getAttribute('aria-controls'));
    for (const name of ['data-target', 'data-bs-target', 'popovertarget', 'href']) {
      const value = (el.getAttribute(name) || '').trim();
      if (/^#[\w-]+$/.test(value) || (name === 'popovertarget' && value)) {
        const ref = document.getElementById(value.replace(/^#/, ''));
        if (ref) found.push(ref);
      }
    }
    return found;
  };
  const words = (el) => [el.id, typeof el.className === 'string' ? el.className : '', el.getAttribute('aria-label'),
    el.getAttribute('title'), el.getAttribute('name'), el.value, (el.textContent || '').slice(0, 80)].filter(Boolean).join(' ');
  const native = (el) => el.localName === 'button' || el.localName === 'summary'
    || (el.localName === 'input' && el.type === 'button') || (el.localName === 'a' && el.hasAttribute('href'));
  const navigates = (el) => {
    if (el.localName !== 'a' && el.localName !== 'area') return false;
    if (!el.hasAttribute('href')) return false;
    const href = el.getAttribute('href').trim();
    return !(href === '#' || /^#[\w-]+$/.test(href) || /^javascript:/i.test(href));
  };
  const submits = (el) => (el.localName === 'button' && (el.type === 'submit' || el.type === 'reset') && el.form)
    || (el.localName === 'input' && /^(submit|image|reset)$/.test(el.type));
  const field = (el) => /^(input|select|textarea|option)$/.test(el.localName) && !(el.localName === 'input' && el.type === 'button')
    || /^(combobox|textbox|searchbox|slider|spinbutton|option|checkbox|radio|switch|menuitemcheckbox|menuitemradio)$/.test(el.getAttribute('role') || '')
    || el.isContentEditable;
  const usable = (el) => {
    if (!a11yProbe.shown(el) || el.disabled || el.getAttribute('aria-disabled') === 'true') return false;
    const box = el.getBoundingClientRect();
    return box.width >= 1 && box.height >= 1;
  };

  const found = [];
  const seenTargets = new Set();
  const selector = '[aria-expanded="false"], [aria-haspopup]:not([aria-haspopup="false"]), [aria-controls], '
    + '[popovertarget], [data-toggle], [data-bs-toggle], details:not([open]) > summary, button, [role="button"], input[type="button"]';
  for (const el of document.querySelectorAll(selector)) {
    if (found.length >= max) break;
    if (el.getAttribute('aria-expanded') === 'true' || navigates(el) || submits(el) || field(el)) continue;
    if (el.localName === 'summary' && el.parentElement.firstElementChild !== el) continue;
    const targets = refs(el);
    const haspopup = (el.getAttribute('aria-haspopup') || '').trim().toLowerCase();
    const toggle = (el.getAttribute('data-toggle') || el.getAttribute('data-bs-toggle') || '').toLowerCase();
    if (haspopup === 'dialog' || toggle === 'modal' || targets.some((t) => t.matches(DIALOG))) continue;
    const role = (el.getAttribute('role') || '').trim().split(/\s+/)[0];
    const hiddenTargets = targets.filter((t) => !a11yProbe.shown(t));
    let hint = '';
    let restore = el;
    if (el.localName === 'summary') hint = 'details';
    else if (el.getAttribute('aria-expanded') === 'false') hint = 'aria-expanded';
    else if (role === 'tab') {
      if (el.getAttribute('aria-selected') === 'true' || !hiddenTargets.length) continue;
      const list = el.closest('[role="tablist"]');
      restore = list && list.querySelector('[role="tab"][aria-selected="true"]');
      if (!restore || !usable(restore)) continue;
      hint = 'tab';
    } else if (hiddenTargets.length && (el.hasAttribute('aria-controls') || el.hasAttribute('popovertarget')
      || toggle || el.hasAttribute('data-target') || el.hasAttribute('data-bs-target'))) hint = 'controls';
    else if (haspopup && haspopup !== 'false') hint = 'aria-haspopup';
    else {
      // A button of no declared state: a menu toggle by its words, or by hidden content right after it.
      const button = el.localName === 'button' || el.localName === 'input' || role === 'button';
      if (!button || el.closest('form') || RISKY.test(words(el))) continue;
      const next = el.nextElementSibling;
      const hiddenNext = next && !a11yProbe.shown(next) && (next.textContent.trim() || next.querySelector('img, a, button'));
      if (!TOGGLE.test(words(el)) && !hiddenNext) continue;
      hint = 'toggle';
    }
    if (hint !== 'tab' && el.closest('form') && el.localName !== 'summary' && !(el.localName === 'button' && el.type === 'button')
      && !(role === 'button' && el.localName !== 'button' && el.localName !== 'input')) continue;
    if (!usable(el)) continue;
    const key = targets.map(a11yProbe.idOf).join(' ');
    if (key && seenTargets.has(key)) continue;
    if (key) seenTargets.add(key);
    const id = a11yProbe.idOf(el);
    reveal.controls.set(id, el);
    reveal.controls.set(a11yProbe.idOf(restore), restore);
    found.push({
      ...a11yProbe.describe(el), id, how: native(el) ? 'key' : 'click', hint,
      restore: a11yProbe.idOf(restore), restoreHow: native(restore) ? 'key' : 'click',
      label: a11yProbe.label(el), text: (el.innerText || el.value || el.getAttribute('aria-label') || '').trim().slice(0, 60),
      expanded: el.getAttribute('aria-expanded'),
    });
  }
  return found;
}
