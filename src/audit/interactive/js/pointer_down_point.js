/* global a11yProbe */
// Function expression (id): where to press target id of js/pointer_down_targets.js, scrolled into the middle of the window: {x, y} in viewport CSS px, or null when it is gone, no longer rendered, or something else lies over its centre (a press there would not reach it).
function (id) {
  const known = globalThis[Symbol.for('a11y.pointerDown')];
  const ref = known && known.get(id);
  const el = ref ? ref.deref() : null;
  if (!el || !el.isConnected || !a11yProbe.isRendered(el)) return null;
  const point = a11yProbe.pressPoint(el);
  return point && point.hit ? {x: point.x, y: point.y} : null;
}
