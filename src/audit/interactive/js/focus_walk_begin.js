/* global a11yProbe */
// Function expression (options): prepares a page's focus visits and returns their plan: {count, layers, visit: [index], positive: [{target, html, label, tabindex, jumped, first}], jumps: [{a, b, c, rise}]}.
// The document's sequential focus order is listed (elements with tabindex above 0 first,
// then document order; count: its length, at most options.max kept for visits by index).
// `visit` are the indexes worth a real Tab: those invisible before focus (skip links,
// visually hidden controls, at most options.hidden), those with a focus listener of their own
// (js/focus_listeners.js noted them; at most options.listening), and when fixed or sticky
// content touches the screen (`layers`) those on the first screen it covers and a few below
// it (at most options.covered and options.later). `positive` are the elements whose tabindex above 0
// puts them before elements that come earlier in the document and sit above them on screen;
// `jumps` the places where the order goes far up the page (options.jump CSS px) and straight
// back down, within one column and one landmark, as {a, b, c} labels and targets. The order
// is kept for the calls that follow (js/focus_looks.js, js/focus_walk_start.js, the steps);
// nothing is focused or moved yet.
function (options) {
  const SEQUENTIAL = 'a[href], area[href], button, input:not([type="hidden"]), select, textarea, iframe, '
    + 'embed, object, audio[controls], video[controls], [contenteditable]:not([contenteditable="false"]), '
    + 'details > summary:first-of-type, [tabindex]';
  const inSequence = (el) => {
    if (el.disabled || el.closest('[inert]')) return false;
    if (el.hasAttribute('tabindex')) return el.tabIndex >= 0;
    return !(el.localName === 'a' && !el.hasAttribute('href'));
  };
  // An area is shown, and takes focus, where the image that uses its map is.
  const rendered = (el) => {
    if (el.localName !== 'area') return a11yProbe.isRendered(el);
    const image = a11yProbe.mapImage(el);
    return Boolean(image && a11yProbe.isRendered(image));
  };
  const inDocument = [];
  const collect = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.matches(SEQUENTIAL) && inSequence(el) && rendered(el)) inDocument.push(el);
      if (el.shadowRoot) collect(el.shadowRoot);
    }
  };
  collect(document);
  const positives = inDocument.filter((el) => el.tabIndex > 0).sort((a, b) => a.tabIndex - b.tabIndex);
  const all = [...positives, ...inDocument.filter((el) => el.tabIndex <= 0)];
  const kept = all.slice(0, options.max);

  const parentOf = (node) => node.parentElement
    || (node.getRootNode() instanceof ShadowRoot ? node.getRootNode().host : null);
  const layerOf = (node) => {
    for (let cur = node; cur && cur !== document.documentElement; cur = parentOf(cur)) {
      const position = getComputedStyle(cur).position;
      if (position === 'fixed' || position === 'sticky') return cur;
    }
    return null;
  };
  const boxes = new Map();
  const pageBox = (el) => {
    if (!boxes.has(el)) {
      const r = el.getBoundingClientRect();
      boxes.set(el, {x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height});
    }
    return boxes.get(el);
  };
  const invisible = (el) => {
    if (el.localName === 'area') {  // drawn on the image that uses its map
      const image = a11yProbe.mapImage(el);
      return !image || invisible(image);
    }
    if (el.checkVisibility && !el.checkVisibility({opacityProperty: true, visibilityProperty: true})) return true;
    const b = pageBox(el);
    if (b.width < 1 || b.height < 1 || b.x + b.width <= 0 || b.y + b.height <= 0) return true;
    const style = getComputedStyle(el);
    const hides = style.overflowX !== 'visible' || style.overflowY !== 'visible';
    return ((b.width < 2 || b.height < 2) && hides) || /^rect/.test(style.clip) || /^inset\(\s*50%/.test(style.clipPath);
  };

  // Fixed or sticky content over the screen's edges or middle.
  let layers = false;
  for (const y of [2, 16, 48, innerHeight / 2, innerHeight - 48, innerHeight - 16, innerHeight - 2]) {
    for (const x of [4, innerWidth / 4, innerWidth / 2, (3 * innerWidth) / 4, innerWidth - 4]) {
      const hit = document.elementFromPoint(x, y);
      if (hit && layerOf(hit)) layers = true;
    }
  }

  const hidden = [];
  const covered = [];
  const later = [];
  kept.forEach((el, index) => {
    if (invisible(el)) {
      if (hidden.length < options.hidden) hidden.push(index);
      return;
    }
    if (!layers) return;
    const b = pageBox(el);
    if (b.y >= innerHeight) {
      later.push(index);
    } else if (covered.length < options.covered && !layerOf(el)) {
      const hit = document.elementFromPoint(Math.min(b.x + b.width / 2, innerWidth - 1), Math.min(b.y + b.height / 2, innerHeight - 1));
      if (hit && hit !== el && !el.contains(hit) && !hit.contains(el) && layerOf(hit)) covered.push(index);
    }
  });
  // Elements with a focus listener of their own: where receiving focus may change the context.
  const own = globalThis[Symbol.for('a11y.focusListeners')];
  const listening = own ? kept.map((el, index) => (own.has(el) ? index : -1)).filter((i) => i >= 0).slice(0, options.listening) : [];
  const sample = later.length <= options.later ? later
    : Array.from({length: options.later}, (_, i) => later[Math.floor((i * (later.length - 1)) / (options.later - 1))]);

  const positive = [];
  const zeroes = all.filter((el) => el.tabIndex === 0);
  for (const el of positives.slice(0, 5)) {
    const box = pageBox(el);
    const jumped = zeroes.filter((other) => {
      if (other.compareDocumentPosition(el) !== Node.DOCUMENT_POSITION_FOLLOWING) return false;
      const o = pageBox(other);
      return o.width > 0 && o.height > 0 && o.y + o.height <= box.y - 4;
    });
    if (jumped.length) {
      positive.push({...a11yProbe.describe(el), label: a11yProbe.label(el), tabindex: el.tabIndex,
        jumped: jumped.length, first: a11yProbe.label(jumped[0])});
    }
  }

  // Far up and straight back down, in one column and one landmark (reading order broken).
  const LANDMARK = 'header, nav, main, aside, footer, form, [role="banner"], [role="navigation"], [role="main"], '
    + '[role="complementary"], [role="contentinfo"], [role="region"], [role="search"], [role="dialog"]';
  const shown = kept.filter((el) => !invisible(el) && el.localName !== 'iframe');
  const middle = (el) => pageBox(el).y + pageBox(el).height / 2;
  const overlap = (p, q) => pageBox(p).x < pageBox(q).x + pageBox(q).width && pageBox(q).x < pageBox(p).x + pageBox(p).width;
  const jumps = [];
  for (let i = 1; i + 1 < shown.length && jumps.length < 3; i += 1) {
    const [a, b, c] = [shown[i - 1], shown[i], shown[i + 1]];
    const [ya, yb, yc] = [middle(a), middle(b), middle(c)];
    if (!(yb < ya - options.jump && yc > yb + options.jump && Math.abs(yc - ya) < options.jump / 2)) continue;
    if (!(overlap(a, b) || overlap(b, c)) || /^#/.test(a.getAttribute('href') || '')) continue;
    if ([a, b, c].some((el) => layerOf(el)) || new Set([a, b, c].map((el) => el.closest(LANDMARK))).size > 1) continue;
    const said = (el) => ({label: a11yProbe.label(el), text: (el.innerText || el.value || '').trim().slice(0, 40), ...a11yProbe.describe(el)});
    jumps.push({a: said(a), b: said(b), c: said(c), rise: Math.round(ya - yb)});
  }

  globalThis[Symbol.for('a11y.focusWalk')] = {elements: kept, ids: new Map(), focusins: []};
  return {count: all.length, layers, visit: [...new Set([...hidden, ...listening, ...covered, ...sample])], positive, jumps};
}
