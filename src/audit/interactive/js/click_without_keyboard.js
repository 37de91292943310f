/* global a11yProbe */
// Function expression (found, options): of the elements with a pointer listener of their own (found, from Probe.listening), those Tab cannot reach: {applied, items: [{verdict, reason, target, html, label, text, events}]}, at most options.max failures, then at most options.review to review.
// A listener counts when it is the element's own (an ancestor that delegates is not the
// control), does more than stop the event, and the element is rendered with a real size. The
// element passes when it or an ancestor is focusable, when it wraps a focusable control
// (the control is what the keyboard uses), when it is or is inside a label, or when a
// composite widget manages it (aria-activedescendant, a focusable or key-handling container).
// One that looks like a control but sits in a dialog with a key listener about (Escape may do
// what its × does), or beside a focusable control that may do the same, is left to review.
function (found, options) {
  const POINTER = new Set(['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup']);
  const KEYS = new Set(['keydown', 'keyup', 'keypress']);
  const FOCUSABLE = 'a[href], area[href], button, input:not([type="hidden"]), select, textarea, '
    + 'iframe, embed, object, audio[controls], video[controls], [contenteditable]:not([contenteditable="false"]), '
    + 'details > summary:first-of-type, [tabindex]';
  const CONTROL_ROLES = new Set(['button', 'link', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio',
    'checkbox', 'radio', 'switch', 'option', 'treeitem', 'slider', 'spinbutton', 'combobox']);
  const COMPOSITES = '[role="listbox"], [role="menu"], [role="menubar"], [role="tree"], [role="treegrid"], '
    + '[role="grid"], [role="tablist"], [role="radiogroup"], [role="toolbar"]';
  const INLINE_TAGS = new Set(['div', 'span', 'img', 'li', 'i', 'b', 'em', 'strong', 'svg', 'td', 'p', 'h1', 'h2',
    'h3', 'h4', 'h5', 'h6', 'label', 'a', 'use', 'path', 'picture']);

  const keyOwners = new Set(found.filter((f) => f.types.some((t) => KEYS.has(t))).map((f) => f.node));
  const referenced = new Set();
  for (const el of document.querySelectorAll('[aria-activedescendant], [aria-controls], [aria-owns]')) {
    for (const attr of ['aria-activedescendant', 'aria-controls', 'aria-owns']) {
      for (const id of (el.getAttribute(attr) || '').split(/\s+/)) if (id) referenced.add(id);
    }
  }

  const parentOf = (el) => el.parentElement || (el.getRootNode() instanceof ShadowRoot ? el.getRootNode().host : null);
  const role = (el) => (el.getAttribute('role') || '').trim().split(/\s+/)[0].toLowerCase();
  const inSequence = (el) => {
    if (!el.matches(FOCUSABLE) || el.disabled || el.closest('[inert]')) return false;
    if (el.hasAttribute('tabindex')) return el.tabIndex >= 0;
    return !(el.localName === 'a' && !el.hasAttribute('href'));
  };
  const focusableInside = (el) => {
    const roots = [el, ...(el.shadowRoot ? [el.shadowRoot] : [])];
    return roots.some((root) => [...root.querySelectorAll(FOCUSABLE)].some((c) => c !== el && inSequence(c)));
  };
  const ancestorControl = (el) => {
    for (let node = parentOf(el); node && node !== document.body; node = parentOf(node)) {
      if (node.localName === 'label' || inSequence(node)) return node;
      if (node.shadowRoot && node.shadowRoot.delegatesFocus) return node;
    }
    return null;
  };
  const managed = (el) => {
    if (el.id && referenced.has(el.id)) return true;
    for (let node = el; node && node !== document.body; node = parentOf(node)) {
      if (node !== el && node.matches(COMPOSITES)) {
        return inSequence(node) || keyOwners.has(node) || (node.id && referenced.has(node.id))
          || [...node.querySelectorAll('[tabindex]')].some((c) => c.tabIndex >= 0);
      }
    }
    return false;
  };
  // An image or icon, or a twin of a control next to it: a pointer shortcut to what a focusable
  // control close by (in its parent or grandparent) already does, as a thumbnail beside its link.
  const twin = (el, words) => {
    let node = parentOf(el);
    for (let depth = 0; depth < 2 && node && node !== document.body; depth += 1, node = parentOf(node)) {
      const controls = [...node.querySelectorAll(FOCUSABLE)].filter((c) => c !== el && inSequence(c));
      if (controls.length && (!words || controls.some((c) => text(c) === words))) return true;
    }
    return false;
  };
  // A control inside a dialog that a key listener serves (Escape closing it, as its × does).
  const dismissible = (el) => {
    const dialog = el.closest('dialog, [role="dialog"], [role="alertdialog"], [aria-modal="true"]');
    if (!dialog) return false;
    if (keyOwners.has(window) || keyOwners.has(document) || keyOwners.has(document.documentElement)) return true;
    for (let node = el; node; node = parentOf(node)) if (keyOwners.has(node)) return true;
    return false;
  };
  const text = (el) => (el.innerText || el.textContent || el.getAttribute('aria-label') || el.getAttribute('alt')
    || el.getAttribute('title') || '').replace(/\s+/g, ' ').trim();
  // Children of one tag, several: a list whose items the listener serves by delegation.
  const delegating = (el) => {
    const tags = {};
    for (const child of el.children) tags[child.localName] = (tags[child.localName] || 0) + 1;
    return Object.values(tags).some((n) => n >= 3);
  };

  const viewArea = innerWidth * innerHeight;
  let applied = 0;
  const items = [];
  for (const {node: el, handlers} of found) {
    if (!(el instanceof Element) || el === document.documentElement || el === document.body) continue;
    const acts = handlers.filter((h) => POINTER.has(h.type) && !a11yProbe.inertHandler(h.source));
    if (!acts.length || !a11yProbe.isRendered(el)) continue;
    if (el.checkVisibility && !el.checkVisibility({opacityProperty: true, visibilityProperty: true})) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 8 || r.height < 8 || r.right + scrollX <= 0 || r.bottom + scrollY <= 0) continue;
    const tag = el.localName;
    if (tag === 'option' || tag === 'optgroup' || tag === 'video' || tag === 'audio') continue;
    if (el.disabled || el.closest('[aria-disabled="true"], [inert]')) continue;
    applied += 1;
    if (inSequence(el) || tag === 'label' || ancestorControl(el) || focusableInside(el)) continue;
    if (keyOwners.has(el) || managed(el)) continue;
    if (el.shadowRoot && el.shadowRoot.delegatesFocus) continue;
    const elRole = role(el);
    const big = r.width * r.height > 0.4 * viewArea || r.height > 0.6 * innerHeight;
    if (!CONTROL_ROLES.has(elRole) && (big || delegating(el))) continue;
    const style = getComputedStyle(el);
    if (style.pointerEvents === 'none') continue;
    const words = text(el);
    const inline = acts.some((h) => /^function on(?:click|mouse|pointer)\w*\(event\)/.test(h.source));
    const anchor = tag === 'a' && !el.hasAttribute('href');
    const looks = CONTROL_ROLES.has(elRole) || style.cursor === 'pointer' || anchor
      || (inline && INLINE_TAGS.has(tag) && words.length <= 80);
    const events = [...new Set(acts.map((h) => h.type))];
    const base = {target: a11yProbe.target(el), html: a11yProbe.openingTag(el), label: a11yProbe.label(el),
      text: words.slice(0, 60), events, role: elRole, cursor: style.cursor};
    // Custom elements with a shadow tree may hold their own focusable control out of sight.
    const opaque = tag.includes('-') && !el.shadowRoot;
    if (el.hasAttribute('tabindex')) {
      items.push({...base, verdict: 'cantTell', reason: 'scripted-focus'});
    } else if (looks && !opaque && !twin(el, words) && !dismissible(el)) {
      items.push({...base, verdict: 'failed', reason: anchor ? 'anchor' : CONTROL_ROLES.has(elRole) ? 'role' : style.cursor === 'pointer' ? 'cursor' : 'inline'});
    } else if (looks || (words && words.length <= 80) || ['img', 'svg', 'i', 'canvas'].includes(tag)) {
      items.push({...base, verdict: 'cantTell',
        reason: opaque ? 'custom' : looks && dismissible(el) ? 'dialog' : looks ? 'twin' : 'unclear'});
    }
  }
  const failed = items.filter((item) => item.verdict === 'failed').slice(0, options.max);
  const review = items.filter((item) => item.verdict === 'cantTell').slice(0, options.review);
  return {applied, items: [...failed, ...review]};
}
