/* global a11yProbe */
// Function expression (options): where the last key press left focus, as seen on screen: null when focus left the document, else {id, index, target, html, label, text, kind, frame, hidden, obscured, moved, labelShown}.
// `hidden` says why nothing of it can be seen while it has focus ('opacity', 'size',
// 'clipped', 'off-screen'; an image map's area is measured on the image that uses its map;
// its own box, or a descendant's when its own is empty, is cut by
// ancestors that clip their overflow, CSS clip and inset() clip paths, and the viewport; a
// box of under 2 px that hides its overflowing content counts as clipped). `obscured` is
// {covered, total, by, modal}: how many of 9 points spread over its visible part are under
// opaque fixed or sticky content (document.elementsFromPoint; the element's own ancestors and
// descendants, and transparent or pointer-events: none layers, do not count). Either verdict is read again once the
// page's transitions and scrolling have settled (at most options.settleMs): focus styles and
// smooth scrolling take time. `moved` is where the press sent focus first when the page then
// moved it elsewhere. `labelShown` says whether a visible label stands for a hidden field.
async function (options) {
  const state = globalThis[Symbol.for('a11y.focusWalk')];
  const focusins = state.focusins.splice(0);
  const el = a11yProbe.deepActive();
  if (!el) return null;

  const parentOf = (node) => node.parentElement
    || (node.getRootNode() instanceof ShadowRoot ? node.getRootNode().host : null);
  const related = (a, b) => {
    for (let node = b; node; node = parentOf(node)) if (node === a) return true;
    for (let node = a; node; node = parentOf(node)) if (node === b) return true;
    return false;
  };
  const viewport = () => ({l: 0, t: 0, r: document.documentElement.clientWidth || innerWidth,
    b: document.documentElement.clientHeight || innerHeight});
  const cut = (a, b) => ({l: Math.max(a.l, b.l), t: Math.max(a.t, b.t), r: Math.min(a.r, b.r), b: Math.min(a.b, b.b)});
  const seen = (r) => r.r - r.l >= 1 && r.b - r.t >= 1;
  const length = (value, whole) => (value.endsWith('%') ? (parseFloat(value) / 100) * whole : parseFloat(value) || 0);

  // The part of node's box that clipping leaves, before the viewport cuts it.
  const clipped = (node) => {
    const own = node.getBoundingClientRect();
    let rect = {l: own.left, t: own.top, r: own.right, b: own.bottom};
    let mode = 'flow';
    for (let cur = node; cur && cur !== document.documentElement && cur !== document.body; cur = parentOf(cur)) {
      const cs = getComputedStyle(cur);
      const box = cur.getBoundingClientRect();
      const positioned = cs.position !== 'static' || cs.transform !== 'none';
      if (cur !== node && (mode === 'flow' || positioned) && cs.display !== 'inline' && cs.display !== 'contents') {
        const inner = {l: box.left + cur.clientLeft, t: box.top + cur.clientTop,
          r: box.left + cur.clientLeft + cur.clientWidth, b: box.top + cur.clientTop + cur.clientHeight};
        if (cs.overflowX !== 'visible') rect = {...rect, l: Math.max(rect.l, inner.l), r: Math.min(rect.r, inner.r)};
        if (cs.overflowY !== 'visible') rect = {...rect, t: Math.max(rect.t, inner.t), b: Math.min(rect.b, inner.b)};
      }
      if (positioned) mode = 'flow';
      if ((cs.position === 'absolute' || cs.position === 'fixed') && cs.clip.startsWith('rect(')) {
        const [top, right, bottom, left] = cs.clip.slice(5, -1).split(/[\s,]+/);
        rect = cut(rect, {
          l: left === 'auto' ? -Infinity : box.left + parseFloat(left),
          t: top === 'auto' ? -Infinity : box.top + parseFloat(top),
          r: right === 'auto' ? Infinity : box.left + parseFloat(right),
          b: bottom === 'auto' ? Infinity : box.top + parseFloat(bottom),
        });
      }
      const inset = /^inset\(([^)]*)\)/.exec(cs.clipPath);
      if (inset) {
        const parts = inset[1].split(/\s+round\s+/)[0].trim().split(/\s+/);
        const [top, right = top, bottom = top, left = right] = parts;
        rect = cut(rect, {l: box.left + length(left, box.width), t: box.top + length(top, box.height),
          r: box.right - length(right, box.width), b: box.bottom - length(bottom, box.height)});
      } else if (/^circle\(0(px|%)?[\s)]/.test(cs.clipPath)) {
        rect = {l: 0, t: 0, r: 0, b: 0};
      }
      if (cs.position === 'fixed') break;
      if (cs.position === 'absolute') mode = 'absolute';
    }
    return {own, rect};
  };

  const fixedLayer = (node) => {
    for (let cur = node; cur && cur !== document.documentElement; cur = parentOf(cur)) {
      const position = getComputedStyle(cur).position;
      if (position === 'fixed' || position === 'sticky') return cur;
    }
    return null;
  };
  const REPLACED = new Set(['img', 'video', 'canvas', 'iframe', 'svg', 'input', 'textarea', 'select', 'button', 'object', 'embed']);
  const opaque = (hit, layer) => {
    for (let cur = hit; cur; cur = parentOf(cur)) {
      const cs = getComputedStyle(cur);
      const alpha = /rgba\([^)]*,\s*([\d.]+)\)/.exec(cs.backgroundColor);
      const painted = cs.backgroundColor !== 'transparent' && !(alpha && parseFloat(alpha[1]) < 0.1);
      if (parseFloat(cs.opacity) < 0.1) return false;
      if (painted || cs.backgroundImage !== 'none' || REPLACED.has(cur.localName)
        || (cs.backdropFilter && cs.backdropFilter !== 'none')) return true;
      if (cur === layer) return false;
    }
    return false;
  };
  // An image map's area is measured on the image that uses its map (a11yProbe.mapImage), over
  // the part its coordinates name.
  const areaPart = (area, image) => {
    const box = image.getBoundingClientRect();
    const whole = {l: box.left, t: box.top, r: box.right, b: box.bottom};
    const coords = (area.getAttribute('coords') || '').split(/\s*,\s*/).map(Number).filter(Number.isFinite);
    const shape = (area.getAttribute('shape') || 'rect').toLowerCase();
    let part = null;
    if (/^rect/.test(shape) && coords.length >= 4) part = {l: coords[0], t: coords[1], r: coords[2], b: coords[3]};
    else if (/^circ/.test(shape) && coords.length >= 3) {
      part = {l: coords[0] - coords[2], t: coords[1] - coords[2], r: coords[0] + coords[2], b: coords[1] + coords[2]};
    } else if (/^poly/.test(shape) && coords.length >= 6) {
      const xs = coords.filter((_, i) => i % 2 === 0);
      const ys = coords.filter((_, i) => i % 2 === 1);
      part = {l: Math.min(...xs), t: Math.min(...ys), r: Math.max(...xs), b: Math.max(...ys)};
    }
    if (!part) return whole;
    return cut(whole, {l: box.left + part.l, t: box.top + part.t, r: box.left + part.r, b: box.top + part.b});
  };
  const image = el.localName === 'area' ? a11yProbe.mapImage(el) : null;
  const subject = image || el;

  const coverAt = (x, y) => {
    for (const hit of document.elementsFromPoint(x, y)) {
      if (related(subject, hit)) return null;
      const layer = fixedLayer(hit);
      const shown = !hit.checkVisibility || hit.checkVisibility({opacityProperty: true, visibilityProperty: true});
      if (layer && shown && !related(subject, layer) && opaque(hit, layer)) return layer;
    }
    return null;
  };

  const measure = () => {
    if (el.localName === 'area' && !image) return {hidden: 'size', obscured: null};
    if (subject.checkVisibility && !subject.checkVisibility({opacityProperty: true, visibilityProperty: true})) {
      return {hidden: 'opacity', obscured: null};
    }
    let {own, rect} = clipped(subject);
    if (image) {
      const part = areaPart(el, image);
      rect = cut(rect, part);
      own = {width: part.r - part.l, height: part.b - part.t};
    }
    let sized = own.width >= 1 && own.height >= 1;
    if (!sized || !seen(rect)) {
      // An empty link around a block, a control drawn by its children: their boxes count.
      for (const child of [...subject.querySelectorAll('*')].slice(0, 20)) {
        const part = clipped(child);
        if (part.own.width >= 1 && part.own.height >= 1) sized = true;
        if (seen(cut(part.rect, viewport()))) {
          ({own, rect} = part);
          break;
        }
      }
    }
    if (!sized) return {hidden: 'size', obscured: null};
    // A box of a pixel or two that hides what it holds (the visually hidden pattern).
    const cs = getComputedStyle(subject);
    const tiny = own.width < 2 || own.height < 2;
    if (tiny && (cs.overflowX !== 'visible' || cs.overflowY !== 'visible')
      && (subject.scrollWidth > subject.clientWidth + 1 || subject.scrollHeight > subject.clientHeight + 1)) {
      return {hidden: 'clipped', obscured: null};
    }
    if (!seen(rect)) return {hidden: 'clipped', obscured: null};
    const view = cut(rect, viewport());
    if (!seen(view)) return {hidden: 'off-screen', obscured: null};
    const dx = Math.min(1, (view.r - view.l) / 4);
    const dy = Math.min(1, (view.b - view.t) / 4);
    const xs = [view.l + dx, (view.l + view.r) / 2, view.r - dx];
    const ys = [view.t + dy, (view.t + view.b) / 2, view.b - dy];
    let covered = 0;
    let by = null;
    for (const x of xs) {
      for (const y of ys) {
        const layer = coverAt(x, y);
        if (layer) {
          covered += 1;
          by = by || layer;
        }
      }
    }
    if (!covered) return {hidden: null, obscured: null};
    const modal = Boolean(by.closest('[aria-modal="true"], dialog:modal') || by.querySelector('[aria-modal="true"], dialog:modal'));
    return {hidden: null, obscured: {covered, total: 9, modal, by: {label: a11yProbe.label(by), ...a11yProbe.describe(by)}}};
  };

  const settle = async () => {
    const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
    const deadline = performance.now() + options.settleMs;
    await sleep(30);
    const running = document.getAnimations().filter((a) => a.playState === 'running' && a.effect
      && a.effect.target && a.effect.getComputedTiming().endTime !== Infinity && related(el, a.effect.target));
    if (running.length) {
      await Promise.race([Promise.all(running.map((a) => a.finished.catch(() => null))),
        sleep(Math.max(0, deadline - performance.now()))]);
    }
    let last = '';
    while (performance.now() < deadline) {
      await Promise.race([new Promise((done) => requestAnimationFrame(done)), sleep(50)]);
      const r = el.getBoundingClientRect();
      const now = [scrollX, scrollY, r.x, r.y, r.width, r.height].join();
      if (now === last) break;
      last = now;
    }
  };

  const role = (el.getAttribute('role') || '').trim().split(/\s+/)[0];
  const tag = el.localName;
  let kind = 'other';
  if ((tag === 'a' || tag === 'area') && el.hasAttribute('href')) kind = 'link';
  else if (role === 'link') kind = 'link';
  else if (tag === 'button' || tag === 'summary' || role === 'button'
    || (tag === 'input' && /^(button|submit|reset|image)$/.test(el.type))) kind = 'button';
  else if (tag === 'input' || tag === 'select' || tag === 'textarea') kind = 'field';
  else if (tag === 'iframe' || tag === 'frame' || tag === 'object' || tag === 'embed') kind = 'frame';
  const labelShown = kind === 'field' && [...(el.labels || [])].some((label) => {
    const r = label.getBoundingClientRect();
    return r.width >= 2 && r.height >= 2 && a11yProbe.isRendered(label);
  });
  let result = measure();
  if ((result.hidden && !labelShown) || result.obscured) {
    await settle();
    if (a11yProbe.deepActive() !== el) return {gone: true};
    result = measure();
  }

  const own = subject.getBoundingClientRect();
  const first = focusins.find((node) => node !== el && !related(el, node) && node.isConnected);
  let moved = null;
  if (first && focusins[0] === first) {
    const r = first.getBoundingClientRect();
    moved = {label: a11yProbe.label(first), ...a11yProbe.describe(first),
      distance: Math.round(Math.hypot(r.x - own.x, r.y - own.y)), shown: r.width >= 2 && r.height >= 2};
  }
  const id = a11yProbe.idOf(el);
  state.ids.set(id, new WeakRef(el));
  return {
    id, index: state.elements.indexOf(el), label: a11yProbe.label(el), ...a11yProbe.describe(el), kind,
    text: (kind === 'field' ? [...(el.labels || [])].map((l) => l.innerText).join(' ') || el.getAttribute('aria-label')
      || el.getAttribute('placeholder') || '' : el.innerText || el.getAttribute('aria-label') || el.value
      || el.getAttribute('title') || '').replace(/\s+/g, ' ').trim().slice(0, 60),
    frame: kind === 'frame', ...result, moved, labelShown,
  };
}
