/* global a11yProbe */
// Function expression (): readies the page for the focus walk's presses; returns nothing.
// Focus is taken off every element and the sequential navigation starting point moved to the
// end of the body (a focused element that is removed leaves it where it was): the next Tab
// goes round to the first element of the order, as from a fresh load. A focusin listener
// notes where focus goes within each step (js/focus_walk_end.js removes it).
function () {
  const state = globalThis[Symbol.for('a11y.focusWalk')];
  const active = a11yProbe.deepActive();
  if (active && active.blur) active.blur();
  window.scrollTo(0, 0);
  if (document.body) {
    const start = document.createElement('span');
    start.tabIndex = -1;
    document.body.append(start);
    start.focus({preventScroll: true});
    start.remove();
  }
  state.focusins.length = 0;
  state.onFocusin = (event) => state.focusins.push(event.composedPath()[0]);
  document.addEventListener('focusin', state.onFocusin, true);
}
