/* global a11yProbe */
// Function expression (max): the custom controls whose declared state a11y-state-exposed tries, at most max in document order, registered for js/state_reading.js: toggles {kind: 'toggle', id, attr, state, label, text, target, html} (switch, checkbox, menuitemcheckbox, a button with aria-pressed) and groups {kind: 'group', role, attr, id, label, text, controls (of a member not chosen: what is clicked), chosen, chosenLabel, chosenText (the member chosen now), target, html} (radios, menu radios, tabs).
// A candidate carries its state attribute with a value of true, false or mixed (a group: one
// member, and only one, says true); it is shown, 8 px or more each way, enabled, not inert,
// not inside a native form control, and its words do not say it acts on the user's behalf
// (buy, delete, send, like, favourite...). Native inputs are never candidates: their state is the browser's.
function (max) {
  const known = globalThis[Symbol.for('a11y.stateExposed')] || (globalThis[Symbol.for('a11y.stateExposed')] = new Map());
  const TOGGLES = {switch: 'aria-checked', checkbox: 'aria-checked', menuitemcheckbox: 'aria-checked', button: 'aria-pressed'};
  const GROUPS = {radio: 'aria-checked', menuitemradio: 'aria-checked', tab: 'aria-selected'};
  const CONTAINERS = {radio: '[role="radiogroup"]', menuitemradio: '[role="group"], [role="menu"], [role="menubar"]', tab: '[role="tablist"]'};
  const VALUES = /^(true|false|mixed)$/;
  const RISKY = /\b(delete|remove|buy|purchase|checkout|pay|order|cart|basket|(?:un)?subscribe|sign ?(?:in|out|up)|log ?(?:in|out)|logout|login|register|send|submit|save|post|publish|like|follow|vote|rate|share|download|print|reset|clear|accept|agree|reject|decline|deny|confirm|apply|book|call|upload|report|block|flag|play|pause|record|donate|install|uninstall|add|favou?rite|bookmark|wishlist|star)\b/i;
  const role = (el) => (el.getAttribute('role') || '').trim().split(/\s+/)[0].toLowerCase();
  const words = (el) => [el.id, typeof el.className === 'string' ? el.className : '', el.getAttribute('aria-label'),
    el.getAttribute('title'), (el.textContent || '').slice(0, 80)].filter(Boolean).join(' ');
  const text = (el) => {
    const labelledby = (el.getAttribute('aria-labelledby') || '').split(/\s+/).filter(Boolean)
      .map((ref) => document.getElementById(ref)).filter(Boolean).map((ref) => ref.textContent).join(' ');
    return (el.getAttribute('aria-label') || labelledby || el.innerText || el.getAttribute('title') || '')
      .replace(/\s+/g, ' ').trim().slice(0, 40);
  };
  const usable = (el) => {
    if (el.disabled || el.getAttribute('aria-disabled') === 'true' || !a11yProbe.shown(el)) return false;
    if (el.closest('[aria-disabled="true"], fieldset:disabled')) return false;
    const parent = el.parentElement;
    if (parent && parent.closest('button, input, select, textarea, option, datalist')) return false;
    const box = el.getBoundingClientRect();
    return box.width >= 8 && box.height >= 8;
  };
  const entry = (el, attr) => {
    const id = a11yProbe.idOf(el);
    known.set(id, {el, attr, target: a11yProbe.target(el), role: role(el) || el.localName, text: el.textContent.trim()});
    return {...a11yProbe.describe(el), id, label: a11yProbe.label(el), text: text(el)};
  };

  const found = [];
  const groups = new Set();
  const selector = '[role="switch"], [role="checkbox"], [role="menuitemcheckbox"], [role="radio"], [role="menuitemradio"], '
    + '[role="tab"], button[aria-pressed], [role="button"][aria-pressed]';
  for (const el of document.querySelectorAll(selector)) {
    if (found.length >= max) break;
    if (el.localName === 'input') continue;
    const kind = role(el) || 'button';
    if (TOGGLES[kind]) {
      const attr = TOGGLES[kind];
      const state = (el.getAttribute(attr) || '').trim();
      if (!VALUES.test(state) || RISKY.test(words(el)) || !usable(el)) continue;
      found.push({...entry(el, attr), kind: 'toggle', attr, state});
      continue;
    }
    const attr = GROUPS[kind];
    if (!attr) continue;
    const container = el.closest(CONTAINERS[kind]) || el.parentElement;
    if (!container || groups.has(container)) continue;
    groups.add(container);
    const members = [...container.querySelectorAll(`[role="${kind}"]`)]
      .filter((m) => m.localName !== 'input' && (m.closest(CONTAINERS[kind]) || m.parentElement) === container);
    const chosen = members.filter((m) => (m.getAttribute(attr) || '').trim() === 'true');
    if (members.length < 2 || chosen.length !== 1 || !usable(chosen[0])) continue;
    const other = members.find((m) => m !== chosen[0] && VALUES.test((m.getAttribute(attr) || 'false').trim())
      && !RISKY.test(words(m)) && usable(m));
    if (!other) continue;
    const x = entry(chosen[0], attr);
    found.push({...entry(other, attr), kind: 'group', role: kind, attr, state: other.getAttribute(attr),
      chosen: x.id, chosenLabel: x.label, chosenText: x.text, controls: (other.getAttribute('aria-controls') || '').trim()});
    known.get(found[found.length - 1].id).group = container;
  }
  return found;
}
