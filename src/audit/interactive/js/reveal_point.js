/* global a11yProbe */
// Function expression (id, how): readies the element a finder registered as id for activation (scrolled into view; focused when how is 'key'); returns {x, y, hit, focused} (its centre, whether a click there reaches it, whether it has focus) or null when it is gone or hidden.
function (id, how) {
  const reveal = globalThis.a11yReveal;
  const el = reveal && reveal.controls.get(id);
  if (!el || !el.isConnected || !a11yProbe.shown(el)) return null;
  el.scrollIntoView({block: 'center', inline: 'nearest', behavior: 'instant'});
  if (how === 'key') el.focus({preventScroll: true});
  const box = el.getBoundingClientRect();
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  let top = document.elementFromPoint(x, y);
  while (top && top.shadowRoot) {
    const inner = top.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === top) break;
    top = inner;
  }
  let hit = false;
  for (let node = top; node; node = node.parentNode || node.host) {
    if (node === el) { hit = true; break; }
  }
  return {x, y, hit, focused: a11yProbe.deepActive() === el};
}
