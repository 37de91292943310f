/* global a11yProbe */
// Function expression (waitMs, focusIn): after the page's timers of up to waitMs have run, where focus is with regard to the open dialog: {open, focus: 'inside' | 'none' | 'outside', label, covered, empty} (open: the dialog is still shown); covered: an element outside sits under something else at its centre (behind an overlay); empty: it shows nothing (a focus trap's sentinel, say). With focusIn, focus outside the dialog is first put on its first focusable element (or the dialog itself).
async function (waitMs, focusIn) {
  const opened = globalThis.a11yReveal && globalThis.a11yReveal.dialog;
  if (!opened) return null;
  await new Promise((resolve) => setTimeout(resolve, waitMs));
  const dialog = opened.el;
  const inside = (node) => {
    for (let n = node; n; n = n.parentNode || n.host) if (n === dialog) return true;
    return false;
  };
  if (focusIn && dialog.isConnected && a11yProbe.shown(dialog) && !inside(a11yProbe.deepActive())) {
    const focusable = 'a[href], button, input:not([type="hidden"]), select, textarea, [tabindex]';
    const first = [...dialog.querySelectorAll(focusable)].find((el) => el.tabIndex >= 0 && !el.disabled && a11yProbe.shown(el));
    (first || dialog).focus();
  }
  const open = dialog.isConnected && a11yProbe.shown(dialog);
  const active = a11yProbe.deepActive();
  const named = (el) => {
    const text = (el.innerText || el.value || el.getAttribute('aria-label') || '').trim().replace(/\s+/g, ' ').slice(0, 40);
    return text ? `${a11yProbe.label(el)} ("${text}")` : a11yProbe.label(el);
  };
  if (!active) return {open, focus: 'none', label: 'body', covered: false};
  if (inside(active)) return {open, focus: 'inside', label: named(active), covered: false};
  const box = active.getBoundingClientRect();
  const x = Math.min(Math.max(box.x + box.width / 2, 0), innerWidth - 1);
  const y = Math.min(Math.max(box.y + box.height / 2, 0), innerHeight - 1);
  const top = document.elementFromPoint(x, y);
  const covered = Boolean(top) && !active.contains(top) && !top.contains(active);
  const empty = box.width * box.height === 0 || (!(active.innerText || '').trim() && !active.querySelector('img, svg'));
  return {open, focus: 'outside', label: named(active), covered, empty};
}
