/* global a11yProbe */
// Function expression (): focuses the last element of the open dialog in sequential focus order (document order), ready for a Tab press; returns its label, or null when it has none or will not take focus.
function () {
  const open = globalThis.a11yReveal && globalThis.a11yReveal.dialog;
  if (!open) return null;
  const focusable = 'a[href], area[href], button, input:not([type="hidden"]), select, textarea, summary, iframe, [contenteditable]:not([contenteditable="false"]), [tabindex]';
  const tabbables = [...open.el.querySelectorAll(focusable)].filter((el) => el.tabIndex >= 0 && !el.disabled && a11yProbe.shown(el));
  const last = tabbables[tabbables.length - 1];
  if (!last) return null;
  last.focus();
  return a11yProbe.deepActive() === last ? a11yProbe.label(last) : null;
}
