/* global a11yProbe */
// Function expression (capMs): once the page has settled (capMs at most) after an action meant to undo the one reveal_before.js readied, whether the page is back: {restored, open (labels of revealed elements still shown), expanded}. When it is not, the hidden content is read again before the next control.
async function (capMs) {
  const reveal = globalThis.a11yReveal;
  const current = reveal && reveal.current;
  if (!current) return {restored: true, open: [], expanded: null};
  await a11yProbe.settle(capMs);
  const {el} = current;
  const open = (current.roots || []).filter((root) => root.isConnected && a11yProbe.shown(root)
    && root.checkVisibility({checkOpacity: true, checkVisibilityCSS: true}));  // faded out counts as closed
  const expanded = el.isConnected ? el.getAttribute('aria-expanded') : null;
  const detailsOpen = el.localName === 'summary' && el.parentElement ? el.parentElement.open : null;
  const restored = !open.length && expanded === current.expanded && detailsOpen === current.open;
  if (restored) reveal.current = null;
  else reveal.stale = true;
  return {restored, open: open.map(a11yProbe.label), expanded};
}
