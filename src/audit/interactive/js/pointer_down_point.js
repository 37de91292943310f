/* global a11yProbe */
// Function expression (id): where to press target id of js/pointer_down_targets.js, scrolled into the middle of the window: {x, y} in viewport CSS px, or null when it is gone, no longer rendered, or something else lies over its centre (a press there would not reach it).
function (id) {
  const known = globalThis[Symbol.for('a11y.pointerDown')];
  const ref = known && known.get(id);
  const el = ref ? ref.deref() : null;
  if (!el || !el.isConnected || !a11yProbe.isRendered(el)) return null;
  el.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2;
  const y = r.top + r.height / 2;
  if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return null;
  let hit = document.elementFromPoint(x, y);
  while (hit && hit.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  for (let node = hit; node; node = node.parentNode || node.host) {
    if (node === el) return {x, y};
  }
  return null;
}
