// Whole script, run once in the screenshots' isolated world after evidence_page_helpers.js:
// installs globalThis.__a11yShots ({view, top, frame, box, boxes, reveal, clear}, the
// page-side half of audit.screenshots); returns true.
/* global __a11yLlm */
(() => {
  let mark = null;
  let home = null;
  // The visible part of the top document, in CSS pixels of the top document.
  function view() {
    const vv = window.visualViewport;
    return {
      scrollX: window.scrollX, scrollY: window.scrollY,
      width: vv ? vv.width : window.innerWidth, height: vv ? vv.height : window.innerHeight,
      dpr: window.devicePixelRatio || 1,
    };
  }
  // Scrolled to the top-left corner (remembering where the page was, for clear()).
  function top() {
    if (home === null) home = {x: window.scrollX, y: window.scrollY};
    window.scrollTo({left: 0, top: 0, behavior: 'instant'});  // not smoothly: shots follow at once
    return view();
  }
  function draw(box) {
    if (mark === null) {
      mark = document.createElement('div');
      mark.setAttribute('aria-hidden', 'true');
    }
    const rules = {
      position: 'fixed', left: `${box.x - 4}px`, top: `${box.y - 4}px`,
      width: `${box.width + 8}px`, height: `${box.height + 8}px`, margin: '0', padding: '0',
      'box-sizing': 'border-box', border: '3px solid #d0006f', background: 'transparent',
      'box-shadow': '0 0 0 2px #ffffff, inset 0 0 0 1px #ffffff', 'z-index': '2147483647',
      'pointer-events': 'none', display: 'block', visibility: 'visible', opacity: '1',
      transform: 'none',
    };
    for (const [name, value] of Object.entries(rules)) mark.style.setProperty(name, value, 'important');
    if (!mark.isConnected) document.documentElement.appendChild(mark);
  }
  // The element of a finding's selector scrolled into view (and outlined): its border box in
  // the top document's coordinates and the view it is in, or {skip: reason}. With scroll
  // false it is taken where it is (a state shot of a focused element under a sticky bar,
  // or of a hovered trigger: scrolling would end the state the shot is for).
  function frame(selector, outline, scroll = true) {
    if (home === null) home = {x: window.scrollX, y: window.scrollY};
    const el = __a11yLlm.resolve(selector);
    if (!el) return {skip: 'not found (removed, or inside a cross-origin frame)'};
    if (mark !== null) mark.remove();
    if (scroll) el.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
    const offset = __a11yLlm.frameOffset(el);
    if (!offset) return {skip: 'inside a cross-origin frame'};
    // An empty inline element (a link without text) has a place but no width: shot there.
    if (el.getClientRects().length === 0) return {skip: 'not rendered (it has no box)'};
    const r = el.getBoundingClientRect();
    const box = {x: r.left + offset.x, y: r.top + offset.y, width: r.width, height: r.height};
    if (outline) draw(box);
    return {
      box: {x: box.x + window.scrollX, y: box.y + window.scrollY, width: box.width, height: box.height},
      view: view(),
    };
  }
  // The border box of another element in the top document's coordinates, nothing scrolled
  // or drawn (what a state shot shows beside its element: a hovered trigger's tooltip), or null.
  function box(selector) {
    const el = __a11yLlm.resolve(selector);
    const offset = el && __a11yLlm.frameOffset(el);
    if (!offset || el.getClientRects().length === 0) return null;
    const r = el.getBoundingClientRect();
    return {x: r.left + offset.x + window.scrollX, y: r.top + offset.y + window.scrollY,
      width: r.width, height: r.height};
  }
  // Overflow values that let an element be scrolled out of its ancestor's box.
  const SCROLLS = new Set(['auto', 'scroll', 'hidden']);
  const parentOf = node => node.parentElement || (node.getRootNode().host || null);
  const inside = (r, c) => r.left >= c.left - 1 && r.top >= c.top - 1 &&
    r.right <= c.right + 1 && r.bottom <= c.bottom + 1;
  // Whether the element shows whole as the page lies: no ancestor that scrolls hides part of
  // it, nor the viewport of a frame it is in (the top document's viewport does not count: a
  // capture beyond it shows the whole page).
  function unhidden(el) {
    let node = el, r = el.getBoundingClientRect(), win = el.ownerDocument.defaultView;
    for (;;) {
      const doc = node.ownerDocument;
      for (let up = parentOf(node); up; up = parentOf(up)) {
        if (up === doc.documentElement || up === doc.body) continue;
        const style = win.getComputedStyle(up);
        const scrolls = SCROLLS.has(style.overflowX) || SCROLLS.has(style.overflowY);
        if (scrolls && !inside(r, up.getBoundingClientRect())) return false;
      }
      if (win === window) return true;
      if (!inside(r, {left: 0, top: 0, right: win.innerWidth, bottom: win.innerHeight})) return false;
      let fe = null;
      try { fe = win.frameElement; } catch { fe = null; }
      if (!fe) return false;
      node = fe; r = fe.getBoundingClientRect(); win = fe.ownerDocument.defaultView;
    }
  }
  // For one capture of many elements (audit.shot_batch): the page scrolled to its top, then
  // each selector's border box in the top document's coordinates, nothing drawn, with whole
  // (unhidden above), or {skip: reason}; the view, and the page's size.
  function boxes(selectors) {
    const at = top();
    const list = selectors.map(selector => {
      const el = __a11yLlm.resolve(selector);
      if (!el) return {skip: 'not found (removed, or inside a cross-origin frame)'};
      const offset = __a11yLlm.frameOffset(el);
      if (!offset) return {skip: 'inside a cross-origin frame'};
      if (el.getClientRects().length === 0) return {skip: 'not rendered (it has no box)'};
      const r = el.getBoundingClientRect();
      return {
        box: {x: r.left + offset.x + window.scrollX, y: r.top + offset.y + window.scrollY,
          width: r.width, height: r.height},
        whole: unhidden(el),
      };
    });
    const root = document.documentElement, body = document.body;
    const page = {
      width: Math.max(root.scrollWidth, body ? body.scrollWidth : 0, at.width),
      height: Math.max(root.scrollHeight, body ? body.scrollHeight : 0, at.height),
    };
    return {boxes: list, view: at, page};
  }
  // Whether an element itself shows at the middle of its box in the viewport: the topmost
  // element there (through open shadow roots) is it or inside it. False for an element in a
  // frame, whose point the top document cannot test.
  function showsAtMiddle(el, r) {
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    let hit = document.elementFromPoint(x, y);
    while (hit && hit.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    for (let node = hit; node; node = parentOf(node)) if (node === el) return true;
    return false;
  }
  // For a region of one capture that lies below the first screen (audit.shot_batch): the
  // window scrolled so the region (top document CSS px) is inside the viewport, centred
  // where the page allows, and each selector's border box in the top document as it now
  // lies, with whether the element shows at its middle (null: not in the top document);
  // the view. What shows there now is what a capture of the viewport will show.
  function reveal(region, selectors) {
    if (home === null) home = {x: window.scrollX, y: window.scrollY};
    const v = view();
    window.scrollTo({
      left: Math.max(0, region.x - Math.max(0, (v.width - region.width) / 2)),
      top: Math.max(0, region.y - Math.max(0, (v.height - region.height) / 2)),
      behavior: 'instant',
    });
    const now = view();
    const list = selectors.map(selector => {
      const el = __a11yLlm.resolve(selector);
      if (!el || el.ownerDocument !== document || el.getClientRects().length === 0) return null;
      const r = el.getBoundingClientRect();
      return {x: r.left + now.scrollX, y: r.top + now.scrollY, width: r.width, height: r.height,
        shows: showsAtMiddle(el, r)};
    });
    return {boxes: list, view: now};
  }
  // The page as it was: no outline, scrolled back to where it was before top() or frame().
  function clear() {
    if (mark !== null) mark.remove();
    mark = null;
    if (home !== null) window.scrollTo(home.x, home.y);
    home = null;
    return true;
  }
  globalThis.__a11yShots = {view, top, frame, box, boxes, reveal, clear};
  return true;
})()
