/* global a11yProbe */
// Function expression (capMs): once the open dialog is hidden and the page has settled (capMs at most), whether it closed and where focus went: {closed, focus: 'opener' | 'none' | 'hidden' | 'other', label, connected}; 'hidden': on an element no longer shown; connected: the dialog is still in the document.
// Focus that is not back on a shown element yet gets one more settling: some scripts return
// it after the closing transition.
async function (capMs) {
  const reveal = globalThis.a11yReveal;
  const open = reveal && reveal.dialog;
  if (!open) return null;
  // Faded out to nothing counts as closed: some dialogs keep their box once transparent.
  const shown = () => open.el.isConnected && a11yProbe.shown(open.el)
    && open.el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true});
  const start = performance.now();
  await a11yProbe.settle(capMs);
  while (shown() && performance.now() - start < capMs) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const closed = !shown();
  const where = () => {
    const active = a11yProbe.deepActive();
    const focus = !active ? 'none' : active === open.opener ? 'opener' : a11yProbe.shown(active) ? 'other' : 'hidden';
    return {focus, label: active ? a11yProbe.label(active) : 'body'};
  };
  let focus = where();
  if (closed && (focus.focus === 'none' || focus.focus === 'hidden')) {
    await a11yProbe.settle(capMs);
    focus = where();
  }
  if (closed) {
    reveal.current = null;
    reveal.dialog = null;
  } else {
    reveal.stale = true;
  }
  return {closed, ...focus, connected: open.el.isConnected};
}
