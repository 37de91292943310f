/* global a11yProbe */
// Function expression (capMs, max): after the action reveal_before.js readied, once the page has settled (capMs at most), what it revealed: {settled, roots: [{target, html, label, count, dialog}] (the topmost elements shown now that were hidden or did not exist, max at most), expanded, open, changes, controlled, faded, focusInside}.
// controlled: an element the control's aria-controls names is among them (or in one);
// faded: a root or an ancestor is still partly transparent (its colours are not final yet).
async function (capMs, max) {
  const reveal = globalThis.a11yReveal;
  const current = reveal && reveal.current;
  if (!current) return null;
  const waited = await a11yProbe.settle(capMs);
  const {el} = current;
  current.observer.disconnect();
  const DIALOG = 'dialog, [role="dialog"], [role="alertdialog"]';
  const MEDIA = 'img, svg, video, audio, canvas, iframe, object, embed, input, select, textarea, button, [role]';
  // Something to see: an area of its own or of one of its first elements (a wrapper of
  // fixed-position content has none of its own), and text or media.
  const area = (node) => {
    const box = node.getBoundingClientRect();
    return box.width * box.height > 0;
  };
  const worth = (node) => (area(node) || [...node.querySelectorAll('*')].slice(0, 50).some(area))
    && ((node.textContent || '').trim() !== '' || node.matches(MEDIA) || node.querySelector(MEDIA) !== null);
  const inside = (node, root) => {
    for (let n = node; n; n = n.parentNode || n.host) if (n === root) return true;
    return false;
  };
  const candidates = [];
  for (const node of reveal.hidden) if (node.isConnected && a11yProbe.shown(node)) candidates.push(node);
  for (const node of current.added) {
    if (node.isConnected && !reveal.hidden.has(node) && a11yProbe.shown(node)) candidates.push(node);
  }
  const roots = [...new Set(candidates)]
    .filter((node) => !inside(node, el) && worth(node))
    .filter((node, _, all) => !all.some((other) => other !== node && inside(node, other)))
    .sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1))
    .slice(0, max);
  current.roots = roots;
  if (roots.some((root) => !reveal.hidden.has(root))) reveal.stale = true;  // new content: read the hidden again
  const controlledIds = (el.getAttribute('aria-controls') || '').split(/\s+/).filter(Boolean);
  const controlled = controlledIds.some((ref) => {
    const target = el.getRootNode().getElementById ? el.getRootNode().getElementById(ref) : null;
    return target && roots.some((root) => inside(target, root) || inside(root, target));
  });
  let faded = false;
  for (const root of roots) {
    for (let n = root; n && n.nodeType === 1; n = n.parentElement) {
      const opacity = parseFloat(getComputedStyle(n).opacity);
      if (opacity > 0 && opacity < 1) { faded = true; break; }
    }
  }
  const dialogs = roots.filter((root) => root.matches(DIALOG) || root.querySelector(DIALOG));
  if (dialogs.length) reveal.dialogOpeners.add(el);
  return {
    settled: waited < capMs,
    roots: roots.map((root) => ({
      ...a11yProbe.describe(root), label: a11yProbe.label(root),
      count: root.querySelectorAll('*').length + 1, dialog: dialogs.includes(root),
    })),
    expanded: el.isConnected ? el.getAttribute('aria-expanded') : null,
    open: el.localName === 'summary' && el.parentElement ? el.parentElement.open : null,
    changes: current.changes, controlled, faded,
    focusInside: roots.some((root) => inside(a11yProbe.deepActive(), root)),
  };
}
