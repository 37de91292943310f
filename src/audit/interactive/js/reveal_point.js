/* global a11yProbe */
// Function expression (id, how): readies the element a finder registered as id for activation (scrolled into view; focused when how is 'key'); returns {x, y, hit, focused} (its centre, whether a click there reaches it, whether it has focus) or null when it is gone or hidden.
function (id, how) {
  const reveal = globalThis.a11yReveal;
  const el = reveal && reveal.controls.get(id);
  if (!el || !el.isConnected || !a11yProbe.shown(el)) return null;
  if (how === 'key') el.focus({preventScroll: true});
  const point = a11yProbe.pressPoint(el, 'nearest');
  const {x, y, hit} = point || {x: -1, y: -1, hit: false};
  return {x, y, hit, focused: a11yProbe.deepActive() === el};
}
