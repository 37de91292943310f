// Whole script: installs a11yProbe, the helpers every interactive check's page-side function uses, in the interaction world.
// Isolated from the page's own scripts (they cannot patch what runs here), sharing its DOM.
(() => {
  if (globalThis.a11yProbe) return;

  const cssEscape = (value) => (globalThis.CSS && CSS.escape ? CSS.escape(value) : value.replace(/[^\w-]/g, '\\$&'));

  // A selector unique within the element's own root (document or shadow root): its id when
  // that is unique there, else a path of tag:nth-of-type steps from the nearest ancestor that
  // has one.
  const selectorIn = (el) => {
    const root = el.getRootNode();
    const steps = [];
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
      if (node.id && root.querySelectorAll('#' + cssEscape(node.id)).length === 1) {
        steps.unshift('#' + cssEscape(node.id));
        break;
      }
      const tag = node.localName;
      if (tag === 'html' || tag === 'body' || tag === 'head') {
        steps.unshift(tag);
        if (tag === 'html') break;
        continue;
      }
      let nth = 1;
      for (let sib = node.previousElementSibling; sib; sib = sib.previousElementSibling) {
        if (sib.localName === tag) nth += 1;
      }
      const parent = node.parentElement;
      const alone = !parent || [...parent.children].filter((c) => c.localName === tag).length === 1;
      steps.unshift(alone ? cssEscape(tag) : `${cssEscape(tag)}:nth-of-type(${nth})`);
    }
    return steps.join(' > ');
  };

  // axe's target: one entry for the top document, a list of selectors through shadow roots.
  const target = (el) => {
    const path = [selectorIn(el)];
    for (let root = el.getRootNode(); root instanceof ShadowRoot; root = root.host.getRootNode()) {
      path.unshift(selectorIn(root.host));
    }
    return path.length === 1 ? [path[0]] : [path];
  };

  const openingTag = (el) => {
    const clone = el.cloneNode(false);
    const html = clone.outerHTML || '';
    const end = html.lastIndexOf('</');
    return (end > 0 ? html.slice(0, end) : html).slice(0, 300);
  };

  const describe = (el) => ({target: target(el), html: openingTag(el)});

  // The element that has focus, through open shadow roots (frames stay closed: focus in a
  // frame is the frame element here).
  const deepActive = () => {
    let el = document.activeElement;
    while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
    return el && el !== document.body && el !== document.documentElement ? el : null;
  };

  const isRendered = (el) => {
    if (!el.isConnected) return false;
    if (el.checkVisibility) return el.checkVisibility({checkOpacity: false, checkVisibilityCSS: true});
    const style = getComputedStyle(el);
    return style.display !== 'none' && style.visibility !== 'hidden' && el.getClientRects().length > 0;
  };

  const box = (el) => {
    const r = el.getBoundingClientRect();
    return {x: r.x, y: r.y, width: r.width, height: r.height};
  };

  const label = (el) => {
    const tag = el.localName;
    const id = el.id ? '#' + el.id : '';
    const cls = typeof el.className === 'string' && el.className.trim()
      ? '.' + el.className.trim().split(/\s+/).slice(0, 2).join('.') : '';
    return `${tag}${id}${cls}`;
  };

  // What pressing Enter on a focused element does, as far as the markup says: 'button'
  // (activates it in place), 'local-link' (a link within this document), 'link', 'field'.
  const kind = (el) => {
    const role = (el.getAttribute('role') || '').trim().split(/\s+/)[0];
    if (el.localName === 'button' || role === 'button' || (el.localName === 'input' && /^(button|submit|reset|image)$/.test(el.type))) return 'button';
    if (el.localName === 'a' && el.hasAttribute('href')) {
      const href = el.getAttribute('href');
      return href.startsWith('#') || /^javascript:/i.test(href) ? 'local-link' : 'link';
    }
    return 'field';
  };

  // A number per element, the same for as long as the document lives: how a check tells
  // whether focus came back to an element it saw before.
  const ids = new WeakMap();
  let nextId = 1;
  const idOf = (el) => {
    if (!ids.has(el)) ids.set(el, nextId++);
    return ids.get(el);
  };

  // Rendered and exposed to assistive technologies: not inside aria-hidden="true" or inert
  // content (what axe-core leaves out of most rules as hidden).
  const shown = (el) => isRendered(el) && !el.closest('[aria-hidden="true"], [inert]');

  // Resolves once the page has stopped changing after an action: at least two frames drawn
  // and no DOM change for quietMs, with finite CSS animations and transitions hurried to
  // their end (where they would get anyway); or after capMs. Resolves to the ms it took.
  const settle = (capMs, quietMs = 30) => new Promise((done) => {
    const start = performance.now();
    let last = start;
    let steps = 0;
    const observer = new MutationObserver(() => { last = performance.now(); });
    observer.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
    const hurry = () => {
      for (const animation of document.getAnimations()) {
        const timing = animation.effect && animation.effect.getComputedTiming();
        if (animation.playState !== 'running' || !timing || !Number.isFinite(timing.endTime)) continue;
        try { animation.finish(); } catch { /* a zero playback rate: leave it */ }
      }
    };
    const step = () => {
      steps += 1;
      hurry();
      const now = performance.now();
      if ((steps >= 2 && now - last >= quietMs) || now - start >= capMs) {
        observer.disconnect();
        done(Math.round(now - start));
        return;
      }
      let called = false;
      const next = () => { if (!called) { called = true; step(); } };
      requestAnimationFrame(next);
      setTimeout(next, 20);
    };
    hurry();
    setTimeout(step, 0);
  });

  // The page's own edits of its text since this world was made (while the page settled, before the static pass): what a
  // check that must tell self-updating text (a ticker, a clock) from text that stays reads,
  // so the time other checks took counts as watching. An edit is a text node's data changed,
  // or only text nodes put in or taken out of an element, to a different text: inserting or
  // removing elements (a tooltip, a menu) is not one. Entries {el, at} (performance.now()),
  // the latest 300.
  const startedAt = performance.now();
  const edits = [];
  // When each element was last put in the document or restyled (class or style), for
  // openedInPhase.
  const changedAt = new WeakMap();
  const textOf = (nodes) => [...nodes].map((n) => n.data).join('');
  new MutationObserver((records) => {
    const at = performance.now();
    for (const record of records) {
      let el = null;
      if (record.type === 'characterData') {
        if (record.oldValue !== record.target.data) el = record.target.parentElement;
      } else {
        const nodes = [...record.addedNodes, ...record.removedNodes];
        if (nodes.length && nodes.every((n) => n.nodeType === 3) && textOf(record.addedNodes) !== textOf(record.removedNodes)) el = record.target;
      }
      if (el && el.nodeType === 1) edits.push({el, at});
      for (const node of record.addedNodes) if (node.nodeType === 1) changedAt.set(node, at);
    }
    if (edits.length > 300) edits.splice(0, edits.length - 300);
  }).observe(document, {subtree: true, childList: true, characterData: true, characterDataOldValue: true});
  const textEdits = () => ({startedAt, edits: edits.slice()});

  // How bright an element looks, from its styles (with ``overrides`` of backgroundColor,
  // opacity, visibility and filter, as an animation's keyframe sets them): its background
  // colour at its opacity over the nearest opaque background behind it (the canvas's white at
  // the top), through its brightness and invert filters. {level (relative luminance), shown
  // (how much of it shows, 0 to 1), known (false under a background image, or when it shows or
  // hides content without a background of its own)}.
  let paint = null;
  const RGB = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+)(%?))?\s*\)$/;
  const rgba = (value) => {
    if (!value || value === 'transparent') return [0, 0, 0, 0];
    // Computed colours come as rgb() or rgba(); anything else (a keyframe's "#fff") is parsed
    // by drawing it.
    const plain = RGB.exec(value);
    if (plain) {
      const alpha = plain[4] === undefined ? 1 : parseFloat(plain[4]) / (plain[5] ? 100 : 1);
      return [+plain[1], +plain[2], +plain[3], alpha];
    }
    paint = paint || document.createElement('canvas').getContext('2d', {willReadFrequently: true});
    paint.clearRect(0, 0, 1, 1);
    paint.fillStyle = '#000';
    paint.fillStyle = value;
    paint.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = paint.getImageData(0, 0, 1, 1).data;
    return [r, g, b, a / 255];
  };
  const linear = (c) => { const s = c / 255; return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; };
  const luminance = ([r, g, b]) => 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
  const behind = (el) => {
    for (let node = el.parentElement; node; node = node.parentElement) {
      const cs = getComputedStyle(node);
      if (cs.backgroundImage && cs.backgroundImage !== 'none') return null;
      const colour = rgba(cs.backgroundColor);
      if (colour[3] >= 0.99) return colour;
    }
    return [255, 255, 255, 1];
  };
  // The contrast ratio of a colour (a computed value, at its alpha) drawn just outside el, or
  // over el's own background when inside is true, against what it is drawn over; null when
  // that is an image. {ratio, fg, bg} with the two colours as #rrggbb.
  const hex = (c) => `#${c.slice(0, 3).map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
  const contrastOver = (el, value, inside = false) => {
    let base = behind(el);
    if (!base) return null;
    if (inside) {
      const cs = getComputedStyle(el);
      if (cs.backgroundImage && cs.backgroundImage !== 'none') return null;
      const own = rgba(cs.backgroundColor);
      base = [0, 1, 2].map((i) => own[i] * own[3] + base[i] * (1 - own[3]));
    }
    const paintColour = rgba(value);
    const shown = [0, 1, 2].map((i) => paintColour[i] * paintColour[3] + base[i] * (1 - paintColour[3]));
    const [a, b] = [luminance(shown), luminance(base)];
    return {ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05), fg: hex(shown), bg: hex(base)};
  };
  const amount = (match) => (match ? parseFloat(match[1]) / (match[2] ? 100 : 1) : null);
  const brightness = (el, overrides = {}) => {
    const cs = getComputedStyle(el);
    const pick = (name) => (overrides[name] !== undefined ? overrides[name] : cs[name]);
    const background = rgba(pick('backgroundColor'));
    let shown = parseFloat(pick('opacity'));
    if (!Number.isFinite(shown)) shown = 1;
    if (pick('visibility') === 'hidden' || cs.display === 'none') shown = 0;
    const under = behind(el);
    // Showing and hiding an element without a background of its own shows and hides its
    // content, whose brightness the styles do not give.
    const known = under !== null && (!cs.backgroundImage || cs.backgroundImage === 'none') && !(shown < 1 && background[3] < 0.99);
    const base = under || [255, 255, 255, 1];
    const cover = background[3] * shown;
    let level = luminance([0, 1, 2].map((i) => background[i] * cover + base[i] * (1 - cover)));
    const filter = String(pick('filter') || '');
    const bright = amount(/brightness\(([\d.]+)(%?)\)/.exec(filter));
    const invert = amount(/invert\(([\d.]+)(%?)\)/.exec(filter));
    if (bright !== null) level = Math.min(1, level * bright);
    if (invert !== null) level = level * (1 - invert) + (1 - level) * invert;
    return {level: Math.round(level * 1000) / 1000, shown, known};
  };

  // The page's own changes of class attributes, and of style attributes where a brightness
  // property changed (background, colour, opacity, visibility, filter), since this world was
  // made: a script that flashes content swaps one of them many times a second
  // (a11y-flashing). Moving things by script changes other properties and is not logged.
  // An element changed twice within 300 ms is then watched: its brightness is read at each
  // change (at most WATCHED elements, SAMPLES reads each), so that the check finds the history
  // it needs without waiting. {startedAt, restyles: entries {el, at}, the latest 400,
  // watched: [{el, samples: [[at, level, shown, known]]}]}.
  const restyles = [];
  const WATCHED = 4;
  const SAMPLES = 160;
  const recent = new Map();
  const watched = new Map();
  const BRIGHT = /^(background|background-color|color|opacity|visibility|filter|display)$/;
  const declarations = (value) => new Map((value || '').split(';').map((part) => {
    const at = part.indexOf(':');
    return at < 0 ? null : [part.slice(0, at).trim().toLowerCase(), part.slice(at + 1).trim()];
  }).filter(Boolean));
  const brightnessChanged = (before, after) => {
    const old = declarations(before);
    const now = declarations(after);
    for (const name of new Set([...old.keys(), ...now.keys()])) {
      if (BRIGHT.test(name) && old.get(name) !== now.get(name)) return true;
    }
    return false;
  };
  new MutationObserver((records) => {
    const at = performance.now();
    const changed = new Set();
    for (const record of records) {
      const el = record.target;
      changedAt.set(el, at);
      if (record.attributeName === 'style' && !brightnessChanged(record.oldValue, el.getAttribute('style'))) continue;
      restyles.push({el, at});
      changed.add(el);
    }
    if (restyles.length > 400) restyles.splice(0, restyles.length - 400);
    for (const el of changed) {
      let watch = watched.get(el);
      if (!watch) {
        const times = (recent.get(el) || []).filter((t) => at - t < 300);
        times.push(at);
        if (recent.size > 500) recent.clear();
        recent.set(el, times);
        if (times.length < 2 || watched.size >= WATCHED) continue;
        watch = [];
        watched.set(el, watch);
      }
      if (watch.length < SAMPLES) {
        const {level, shown, known} = brightness(el);
        watch.push([at, level, shown, known]);
      }
    }
  }).observe(document, {subtree: true, attributes: true, attributeFilter: ['class', 'style'], attributeOldValue: true});
  const restyled = () => ({
    startedAt, restyles: restyles.slice(), watched: [...watched].map(([el, samples]) => ({el, samples: samples.slice()})),
  });

  // Whether el sits in a box out of the flow (absolutely or fixed positioned) that was put
  // in the document or restyled after beginPhase: a popup, tooltip or effect the interaction
  // phase's own focusing, typing and hovering opened and left, placed by the page's script
  // for the layout of that moment. The relayout checks judge the page as loaded, not these.
  let phaseAt = null;
  const beginPhase = () => { if (phaseAt === null) phaseAt = performance.now(); };
  const openedInPhase = (el) => {
    if (phaseAt === null) return false;
    for (let node = el; node && node.nodeType === 1; node = node.assignedSlot || node.parentElement
      || (node.parentNode instanceof ShadowRoot ? node.parentNode.host : null)) {
      const at = changedAt.get(node);
      if (at !== undefined && at >= phaseAt && /^(absolute|fixed)$/.test(getComputedStyle(node).position)) return true;
    }
    return false;
  };

  // The image (or object) that uses the map an <area> is in: an area has no box of its own
  // (display: none); it is drawn, focus ring included, on that image. null when none does.
  const mapImage = (area) => {
    const map = area.closest('map');
    const name = map && (map.getAttribute('name') || map.id);
    if (!name) return null;
    return [...document.querySelectorAll('img[usemap], object[usemap]')]
      .find((image) => image.getAttribute('usemap') === `#${name}`) || null;
  };

  // The address of a loaded image whose file may be animated (GIF, APNG, WebP, told by its
  // address; Python reads the frames), or '': for a11y-moving-content and a11y-flashing.
  const MAY_ANIMATE = /\.(gif|png|apng|webp)(\?|#|$)|^data:image\/(gif|png|apng|webp)|gif|webp/i;
  const animatedSource = (img) => {
    const src = img.currentSrc || img.src || '';
    return src && img.complete && MAY_ANIMATE.test(src) ? src : '';
  };

  // The element an axe target names (one selector, or a list through shadow roots), or null.
  const byTarget = (path) => {
    let root = document;
    let el = null;
    for (const step of Array.isArray(path[0]) ? path[0] : [path[0]]) {
      el = root.querySelector(step);
      if (!el) return null;
      root = el.shadowRoot || el;
    }
    return el;
  };

  // Where a real press on el lands: el scrolled into the middle of the window, its centre
  // {x, y} in viewport CSS px and hit, whether the topmost element there (through open shadow
  // roots) is el or inside it; null when the centre is outside the window.
  const pressPoint = (el, inline = 'center') => {
    el.scrollIntoView({block: 'center', inline, behavior: 'instant'});
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2;
    const y = r.top + r.height / 2;
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return null;
    let top = document.elementFromPoint(x, y);
    while (top && top.shadowRoot) {
      const inner = top.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === top) break;
      top = inner;
    }
    let hit = false;
    for (let node = top; node && !hit; node = node.parentNode || node.host) hit = node === el;
    return {x, y, hit};
  };

  // Whether a listener's handler (its source, as DOMDebugger lists it) only stops the event,
  // prevents its default or does nothing: such a handler makes nothing a control.
  const INERT_HANDLER = /^(?:function\s*[\w$]*\s*\([^)]*\)|\(?\s*[\w$]*\s*\)?\s*=>)\s*\{?\s*(?:(?:[\w$]+\.)?(?:stopPropagation|stopImmediatePropagation|preventDefault)\(\)\s*;?\s*|return\s+false\s*;?\s*)*\}?\s*$/;
  const inertHandler = (source) => INERT_HANDLER.test(source.trim());

  // An image of src, decoded, or null when it does not decode within ms.
  const decodedImage = (src, ms) => {
    const img = new Image();
    img.src = src;
    const late = new Promise((resolve) => setTimeout(() => resolve(null), ms));
    return Promise.race([img.decode().then(() => img, () => null), late]);
  };

  Object.defineProperty(globalThis, 'a11yProbe', {
    value: Object.freeze({selectorIn, target, describe, deepActive, isRendered, box, label, openingTag, idOf, kind, shown, settle, textEdits, restyled, brightness, animatedSource, byTarget, decodedImage, beginPhase, openedInPhase, mapImage, contrastOver, pressPoint, inertHandler}),
  });
})();
