/* global a11yProbe */
// Function expression (options): whether focus shows on the first elements of the focus walk's plan (js/focus_walk_begin.js): {judged, failed: [{...described, key, listened}], review: [described], faint: [{...described, what, ratio, fg, bg}], rings}.
// Each of the first options.limit elements of the top document's focus order (options.budgetMs
// of work is only a safety stop for pages where focusing is slow) is focused as the keyboard
// would (focusVisible, without scrolling) and how it, what it contains (its first elements),
// its nearest sibling on each side, its five nearest ancestors and whatever the page's focus
// handlers changed look (computed outline, shadow, borders, background, colours, decoration,
// opacity, transform, box, ::before and ::after) is compared with how they looked unfocused.
// Nothing different fails; a text field with nothing different needs review (its caret may be
// all the sign it has); an element that does not keep focus, and a frame or embedded
// content, is not judged.
// Most elements show focus on themselves (an outline, a shadow, a colour): each element's own
// QUICK properties are read once before anything is focused, and an element whose QUICK
// properties differ once it has focus passes at that. Only an element where they do not
// (the ones that fail, and indicators drawn around them) is read in full, focused and then
// blurred, and the two readings compared. Once a focus or blur handler has changed the
// document, the readings from before may be stale: every element after that is read in full.
// Focus goes from one element straight to the next; transitions a focus change starts are run
// to their end (what the user sees a moment later). Focus, selection, scroll position and
// transitions are put back as they were.
// A failed element that itself, an ancestor, the document or the window listens for focus
// (js/focus_listeners.js) is marked `listened`: its page may react a task later, which these
// readings, all in one task, cannot see. The document is watched from the end of this call on
// (js/focus_recheck.js tells whether it changed by itself, and tries such elements again).
function (options) {
  const state = globalThis[Symbol.for('a11y.focusWalk')];
  const LOOKS = [
    'outlineStyle', 'outlineWidth', 'outlineColor', 'outlineOffset', 'boxShadow',
    'borderTopStyle', 'borderTopWidth', 'borderTopColor', 'borderBottomStyle', 'borderBottomWidth',
    'borderBottomColor', 'borderLeftStyle', 'borderLeftWidth', 'borderLeftColor', 'borderRightStyle',
    'borderRightWidth', 'borderRightColor', 'backgroundColor', 'backgroundImage', 'color',
    'textDecorationLine', 'textDecorationColor', 'textDecorationStyle', 'textDecorationThickness',
    'textShadow', 'opacity', 'transform', 'filter', 'visibility', 'display', 'fontWeight', 'fontStyle',
    'fill', 'stroke', 'clipPath', 'clip', 'width', 'height',
  ];
  const PSEUDO_LOOKS = ['content', 'display', 'backgroundColor', 'borderTopColor', 'borderBottomColor', 'color', 'boxShadow', 'outlineStyle'];
  const TEXT_ENTRY = /^(text|search|email|url|tel|password|number|date|time|datetime-local|month|week)?$/;
  // The element and its first descendants are read with their ::before and ::after.
  const CLOSE = 6;
  const CHANGED = 20;
  const EMBEDDED = new Set(['iframe', 'frame', 'embed', 'object']);

  // How an element looks, as far as its computed style and box say (a zero-width or
  // style-none outline looks like none, whatever its colour).
  const look = (el, pseudos) => {
    const style = getComputedStyle(el);
    const values = LOOKS.map((name) => style[name]);
    if (style.outlineStyle === 'none' || parseFloat(style.outlineWidth) === 0) values.splice(0, 4, 'none', '', '', '');
    for (const pseudo of pseudos ? ['::before', '::after'] : []) {
      const part = getComputedStyle(el, pseudo);
      if (part.content !== 'none' && part.content !== 'normal') values.push(...PSEUDO_LOOKS.map((name) => part[name]));
    }
    const box = el.getBoundingClientRect();
    values.push(Math.round(box.left), Math.round(box.top), Math.round(box.width), Math.round(box.height));
    return values.join('|');
  };
  // Where a focus indicator may be drawn without script: the element and what it contains
  // (the first CLOSE, read with their pseudo-elements), its siblings (sibling selectors) and
  // its ancestors (:focus-within).
  const around = (el) => {
    const near = [el];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_ELEMENT);
    while (near.length < CLOSE && walker.nextNode()) near.push(walker.currentNode);
    const close = near.length;
    for (const step of ['previousElementSibling', 'nextElementSibling']) {
      if (el[step]) near.push(el[step]);
    }
    for (let up = el.parentElement, level = 0; up && level < 5; up = up.parentElement, level++) near.push(up);
    return {near, close};
  };
  const textEntry = (el) => el.isContentEditable || el.localName === 'textarea' ||
    (el.localName === 'input' && TEXT_ENTRY.test((el.getAttribute('type') || '').toLowerCase()));
  const sameRanges = (selection, ranges) => selection.rangeCount === ranges.length && ranges.every((range, i) => {
    const now = selection.getRangeAt(i);
    return now.startContainer === range.startContainer && now.startOffset === range.startOffset &&
      now.endContainer === range.endContainer && now.endOffset === range.endOffset;
  });

  // The properties most focus indicators change, read on the element alone.
  const QUICK = ['outlineStyle', 'outlineWidth', 'outlineColor', 'outlineOffset', 'boxShadow', 'backgroundColor',
    'color', 'textDecorationLine', 'borderBottomColor', 'borderBottomWidth'];
  // The ring focus drew when it is all focus changed on the element itself: an outline of the
  // author's (not the browser's own, style auto), or box shadows with spread and no blur
  // (soft shadows are left alone); {what, colour, inside} or null.
  const ringOf = (el, before) => {
    const style = getComputedStyle(el);
    const changed = QUICK.filter((name) => style[name] !== before[name]);
    if (!changed.length) return null;
    if (changed.every((name) => name.startsWith('outline'))) {
      if (/^(auto|none)$/.test(style.outlineStyle) || (parseFloat(style.outlineWidth) || 0) < 1) return null;
      return {what: 'outline', colour: style.outlineColor, inside: (parseFloat(style.outlineOffset) || 0) < 0};
    }
    if (changed.length !== 1 || changed[0] !== 'boxShadow') return null;
    const shadows = (value) => (value === 'none' ? [] : value.split(/,(?![^(]*\))/).map((part) => part.trim()));
    const added = shadows(style.boxShadow).filter((shadow) => !shadows(before.boxShadow).includes(shadow));
    const rings = added.map((shadow) => {
      const colour = (/rgba?\([^)]*\)/.exec(shadow) || [''])[0];
      const lengths = shadow.replace(colour, '').trim().split(/\s+/).map(parseFloat).filter(Number.isFinite);
      const [, , blur = 0, spread = 0] = lengths;
      return colour && blur === 0 && spread >= 1 ? {what: 'box shadow', colour, inside: /\binset\b/.test(shadow)} : null;
    });
    return rings.length === 1 && rings[0] ? rings[0] : null;
  };
  const quick = (el) => {
    const style = getComputedStyle(el);
    const values = QUICK.map((name) => style[name]);
    if (style.outlineStyle === 'none' || parseFloat(style.outlineWidth) === 0) values.splice(0, 4, 'none', '', '', '');
    return values.join('|');
  };

  const result = {judged: 0, failed: [], review: [], faint: [], rings: 0};
  const listening = globalThis[Symbol.for('a11y.focusListening')] || {nodes: new WeakSet(), everywhere: false};
  const listened = (el) => {
    if (listening.everywhere) return true;
    for (let node = el; node; node = node.parentElement || (node.getRootNode() instanceof ShadowRoot ? node.getRootNode().host : null)) {
      if (listening.nodes.has(node)) return true;
    }
    return false;
  };
  const recheck = {elements: new Map(), after: null, changed: false};
  globalThis[Symbol.for('a11y.focusRecheck')] = recheck;
  if (!state || window.top !== window || !document.hasFocus()) return result; // no focus style applies without focus
  // A frame's focus shows, if at all, in the frame's own document (and embedded content
  // draws its own): not judged here.
  const elements = state.elements.filter((el) => !EMBEDDED.has(el.localName)).slice(0, options.limit);
  if (!elements.length) return result;

  const previous = a11yProbe.deepActive();
  const selection = document.getSelection();
  const ranges = selection ? Array.from({length: selection.rangeCount}, (_, i) => selection.getRangeAt(i).cloneRange()) : [];
  const scroll = [window.scrollX, window.scrollY];
  const transitions = new Set(document.getAnimations().filter((animation) => animation instanceof CSSTransition));
  // Transitions started since the first reading, run to their end.
  const settle = () => {
    for (const animation of document.getAnimations()) {
      if (animation instanceof CSSTransition && !transitions.has(animation)) animation.finish();
    }
  };
  const observer = new MutationObserver(() => {});
  // Whether a handler changed the document since the quick readings.
  let changedSince = false;
  const touched = () => observer.takeRecords()
    .map((record) => (record.target.nodeType === Node.ELEMENT_NODE ? record.target : record.target.parentElement))
    .filter(Boolean);
  Object.assign(recheck, {look, around, settle, touchedLimit: CHANGED});
  const started = performance.now();
  // A ring below 3:1 against what it is drawn over counts only when nothing else near the
  // element changes with focus (a :focus-within background, a sibling shown): read with focus
  // and once more after it, as the second way reads.
  const faintRing = (el, ring) => {
    const contrast = ring && a11yProbe.contrastOver(el, ring.colour, ring.inside);
    if (!contrast) return;
    result.rings += 1;
    if (contrast.ratio >= 3) return;
    const {near, close} = around(el);
    const others = near.slice(1);
    const seen = others.map((node, i) => look(node, i + 1 < close));
    el.blur();
    settle();
    if (others.some((node, i) => look(node, i + 1 < close) !== seen[i])) return;
    result.faint.push({label: a11yProbe.label(el), ...a11yProbe.describe(el), what: ring.what,
      ratio: Math.floor(contrast.ratio * 100) / 100, fg: contrast.fg, bg: contrast.bg});
  };
  try {
    if (previous && previous.blur) previous.blur();
    settle();
    observer.observe(document, {attributes: true, childList: true, subtree: true, characterData: true});
    const unfocused = elements.map(quick);
    const plain = options.rings ? elements.map((el) => {
      const style = getComputedStyle(el);
      return Object.fromEntries(QUICK.map((name) => [name, style[name]]));
    }) : [];
    for (const [index, el] of elements.entries()) {
      if (performance.now() - started > options.budgetMs) break;
      if (touched().length) changedSince = true;
      el.focus({preventScroll: true, focusVisible: true});
      if (a11yProbe.deepActive() !== el) continue;
      const changed = touched();
      settle();
      result.judged += 1;
      if (!changedSince && !changed.length && quick(el) !== unfocused[index]) {
        if (options.rings && !listened(el)) faintRing(el, ringOf(el, plain[index]));
        continue;
      }
      if (changed.length) changedSince = true;
      const {near, close} = around(el);
      const watched = [...new Set([...near, ...changed.slice(0, CHANGED)])];
      const seen = watched.map((node, i) => look(node, i < close));
      el.blur();
      if (touched().length) changedSince = true;
      settle();
      if (watched.some((node, i) => look(node, i < close) !== seen[i])) continue;
      const found = {label: a11yProbe.label(el), ...a11yProbe.describe(el)};
      if (textEntry(el)) {
        result.review.push(found);
      } else {
        const key = a11yProbe.idOf(el);
        recheck.elements.set(key, el);
        result.failed.push({...found, key, listened: listened(el)});
      }
    }
  } finally {
    observer.disconnect();
    const active = a11yProbe.deepActive();
    if (previous && previous.focus) previous.focus({preventScroll: true});
    else if (active && active.blur) active.blur();
    settle();
    if (selection && !sameRanges(selection, ranges)) {
      selection.removeAllRanges();
      ranges.forEach((range) => selection.addRange(range));
    }
    if (window.scrollX !== scroll[0] || window.scrollY !== scroll[1]) window.scrollTo(scroll[0], scroll[1]);
  }
  if (result.failed.some((found) => found.listened)) {
    recheck.changed = false;
    recheck.after = new MutationObserver(() => { recheck.changed = true; });
    recheck.after.observe(document, {attributes: true, childList: true, subtree: true, characterData: true});
  }
  return result;
}
