/* global a11yProbe */
// Function expression (capMs): after reveal_after.js saw content revealed, the dialog in it, once focus is inside it or capMs have passed: {target, html, label, modal, focus, focusLabel, tabbables} or null when no dialog was revealed. focus: 'inside', 'opener', 'none' (the body) or 'outside'.
// A dialog is modal when it was opened with showModal() (:modal) or says aria-modal="true".
// Scripts often move focus only once the dialog's transition has ended: the wait covers it.
async function (capMs) {
  const reveal = globalThis.a11yReveal;
  const current = reveal && reveal.current;
  if (!current || !current.roots) return null;
  const DIALOG = 'dialog, [role="dialog"], [role="alertdialog"], [aria-modal="true"]';
  let dialog = null;
  for (const root of current.roots) {
    dialog = root.matches(DIALOG) ? root : root.querySelector(DIALOG);
    if (dialog && a11yProbe.shown(dialog)) break;
    dialog = null;
  }
  if (!dialog) return null;
  reveal.dialog = {el: dialog, opener: current.el, root: current.roots.find((root) => root.contains(dialog))};
  const inside = (node) => {
    for (let n = node; n; n = n.parentNode || n.host) if (n === dialog) return true;
    return false;
  };
  const start = performance.now();
  while (performance.now() - start < capMs && !inside(a11yProbe.deepActive())) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const active = a11yProbe.deepActive();
  const focus = !active ? 'none' : inside(active) ? 'inside' : active === current.el ? 'opener' : 'outside';
  const focusable = 'a[href], area[href], button, input:not([type="hidden"]), select, textarea, summary, iframe, [contenteditable]:not([contenteditable="false"]), [tabindex]';
  const tabbables = [...dialog.querySelectorAll(focusable)].filter((el) => el.tabIndex >= 0 && !el.disabled && a11yProbe.shown(el));
  return {
    ...a11yProbe.describe(dialog), label: a11yProbe.label(dialog),
    modal: dialog.matches(':modal') || dialog.getAttribute('aria-modal') === 'true',
    focus, focusLabel: active ? a11yProbe.label(active) : 'body', tabbables: tabbables.length,
  };
}
