/* global a11yProbe */
// Function expression (): ends a Tab walk: removes its focusin listener, takes focus off every element and scrolls back to the top; returns nothing.
function () {
  const key = Symbol.for('a11y.focusWalk');
  const state = globalThis[key];
  if (state) document.removeEventListener('focusin', state.onFocusin, true);
  delete globalThis[key];
  const active = a11yProbe.deepActive();
  if (active && active.blur) active.blur();
  window.scrollTo(0, 0);
}
