/* global a11yProbe */
// Function expression (id): before a check readies (reveal_point.js) and activates the control a finder registered as id, records the content hidden now and the control's state and starts watching the DOM; returns false when the control is gone or hidden.
// The hidden content is kept from one control to the next (it is the same once a control
// has been put back); a control that could not be put back makes it be read again.
function (id) {
  const reveal = globalThis.a11yReveal;
  const el = reveal && reveal.controls.get(id);
  if (!el || !el.isConnected || !a11yProbe.shown(el)) return false;
  if (!reveal.hidden || reveal.stale) {
    // The topmost elements hidden from everyone (not rendered, aria-hidden or inert) below
    // rendered parents: what an action may reveal.
    const SKIP = /^(script|style|template|noscript|link|meta|title|head|source|track|param|base|datalist|option|optgroup|br|wbr)$/;
    const hidden = new Set();
    const walk = (parent) => {
      for (const child of parent.children) {
        if (SKIP.test(child.localName)) continue;
        if (child.getAttribute('aria-hidden') === 'true' || child.hasAttribute('inert')) {
          hidden.add(child);
        } else if (!a11yProbe.isRendered(child) && getComputedStyle(child).display !== 'contents') {
          hidden.add(child);
        } else if (child.localName !== 'svg' && child.localName !== 'select') {
          if (child.shadowRoot) walk(child.shadowRoot);
          walk(child);
        }
      }
    };
    walk(document.body || document.documentElement);
    reveal.hidden = hidden;
    reveal.stale = false;
  }
  const current = {
    el, added: [], changes: 0,
    expanded: el.getAttribute('aria-expanded'),
    open: el.localName === 'summary' && el.parentElement ? el.parentElement.open : null,
  };
  current.observer = new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === 'attributes') current.changes += 1;
      for (const node of record.addedNodes) if (node.nodeType === 1) current.added.push(node);
    }
  });
  current.observer.observe(document, {subtree: true, childList: true});
  current.observer.observe(el, {attributes: true, attributeFilter: ['aria-expanded']});
  reveal.current = current;

  return true;
}
