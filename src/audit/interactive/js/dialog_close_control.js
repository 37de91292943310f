/* global a11yProbe */
// Function expression (): the open dialog's own close control (a button or link whose name, title, class or data attribute says close, dismiss or cancel), scrolled into view: {x, y, hit, label} or null.
function () {
  const open = globalThis.a11yReveal && globalThis.a11yReveal.dialog;
  if (!open) return null;
  const CLOSE = /\b(close|dismiss|cancel|done|no,? thanks)\b|^\s*[×✕✖xX]\s*$/i;
  const said = (el) => [el.getAttribute('aria-label'), el.getAttribute('title'), el.textContent, el.value,
    typeof el.className === 'string' ? el.className : '', ...[...el.attributes].filter((a) => /dismiss|close|hide/i.test(a.name)).map(() => 'close')]
    .filter(Boolean).some((text) => CLOSE.test(String(text).trim()) || CLOSE.test(String(text).replace(/[-_]/g, ' ')));
  const control = [...open.el.querySelectorAll('button, [role="button"], a[href^="#"], input[type="button"]')]
    .find((el) => a11yProbe.shown(el) && !el.disabled && said(el));
  if (!control) return null;
  control.scrollIntoView({block: 'nearest', behavior: 'instant'});
  const box = control.getBoundingClientRect();
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  const top = document.elementFromPoint(x, y);
  return {x, y, hit: Boolean(top) && (top === control || control.contains(top)), label: a11yProbe.label(control)};
}
