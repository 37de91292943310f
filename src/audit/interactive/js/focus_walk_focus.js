/* global a11yProbe */
// Function expression (which, value): puts focus where the next Tab of a visit should start, scrolled into view as a Tab would have: on the element a step saw (which 'id', value its id; 0 for the start of the document) or on the element listed before the plan's element at index value (which 'before'); returns that element's {label, text} (empty for the start of the document), or null when it cannot.
// Focus set by a script fires the same focus events a Tab does; the next real Tab then
// reaches the element a visit wants, as it would in the sequence.
function (which, value) {
  const state = globalThis[Symbol.for('a11y.focusWalk')];
  if (!state) return null;
  let el = null;
  if (which === 'id' && value) {
    const ref = state.ids.get(value);
    el = ref ? ref.deref() : null;
    if (!el) return null;
  } else if (which === 'before' && value > 0) {
    el = state.elements[value - 1];
  }
  if (el) {
    if (!el.isConnected) return null;
    el.focus();
    state.focusins.length = 0;
    const text = (el.innerText || el.value || el.getAttribute('aria-label') || '').replace(/\s+/g, ' ').trim();
    return a11yProbe.deepActive() === el ? {label: a11yProbe.label(el), text: text.slice(0, 40)} : null;
  }
  const active = a11yProbe.deepActive();
  if (active && active.blur) active.blur();
  if (!document.body) return null;
  const start = document.createElement('span');
  start.tabIndex = -1;
  document.body.append(start);
  start.focus({preventScroll: true});
  start.remove();
  window.scrollTo(0, 0);
  state.focusins.length = 0;
  return {label: '', text: ''};
}
