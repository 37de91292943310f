/* global a11yProbe */
// Function expression (found, max): what the pointer-cancellation check presses. found (from Probe.listening) lists what has a mousedown or pointerdown listener of its own; returns at most max targets [{id, label, text, target, html}] in document order, each remembered for js/pointer_down_point.js.
// An element with such a listener is a target itself; a container that delegates (not the
// document, html or body: a listener there hears every press, from analytics to menus that
// close on an outside press) gives its first two controls (links, buttons, control roles).
// Left out: handlers that only stop the event or prevent its default (toolbars keep focus
// that way), text fields, selects, sliders and editable content (a press there places a
// caret, opens a list or moves a thumb: the browser's own down-event behaviour), disabled
// and inert elements, and what is not rendered or smaller than 4 px.
function (found, max) {
  const CONTROLS = 'a[href], area[href], button, input[type="submit"], input[type="button"], input[type="image"], '
    + '[role="button"], [role="link"], [role="menuitem"], [role="tab"], [role="option"], [role="treeitem"]';
  const OWN_BEHAVIOUR = 'input:not([type="submit"]):not([type="button"]):not([type="image"]):not([type="reset"]), '
    + 'select, textarea, [contenteditable]:not([contenteditable="false"]), [role="slider"], [role="textbox"], '
    + '[role="scrollbar"], [role="separator"]';
  const known = globalThis[Symbol.for('a11y.pointerDown')] || (globalThis[Symbol.for('a11y.pointerDown')] = new Map());
  const pressable = (el) => {
    if (el.disabled || el.closest('[inert]') || el.matches(OWN_BEHAVIOUR) || !a11yProbe.isRendered(el)) return false;
    const r = el.getBoundingClientRect();
    return r.width >= 4 && r.height >= 4;
  };
  const picked = [];
  const add = (el) => {
    if (picked.length < max && !picked.includes(el) && pressable(el)) picked.push(el);
  };
  for (const {node, handlers} of found) {
    if (!(node instanceof Element) || node === document.documentElement || node === document.body) continue;
    if (handlers.every((h) => a11yProbe.inertHandler(h.source))) continue;
    if (node.matches(CONTROLS) || !node.querySelector(CONTROLS)) add(node);
    else [...node.querySelectorAll(CONTROLS)].slice(0, 2).forEach(add);
    if (picked.length >= max) break;
  }
  picked.sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  return picked.map((el) => {
    const id = a11yProbe.idOf(el);
    known.set(id, new WeakRef(el));
    const text = (el.innerText || el.getAttribute('aria-label') || el.getAttribute('alt') || el.value || '')
      .replace(/\s+/g, ' ').trim().slice(0, 40);
    return {id, label: a11yProbe.label(el), text, ...a11yProbe.describe(el)};
  });
}
