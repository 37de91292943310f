/* global a11yProbe */
// Function expression (mode, limits): text cut off by ancestors that hide overflow. mode 'clipped': the text clipped now ({applies, failed: [...], review: [...], checked}); mode 'spacing': the text that WCAG 1.4.12's spacing makes clipped or overlapping, the spacing applied by a temporary style sheet and removed ({applies, clipped: [...], overlaps: [...], ellipsis: [...], checked}).
// A text node's line boxes are followed up the flat tree: an ancestor whose overflow scrolls
// keeps the rest reachable (it is cut from the boxes without blame); one whose overflow is
// hidden or clip is blamed for what it hides. Absolutely and fixed positioned content escapes
// the ancestors below its containing block. Text with nothing left to show (in a collapsed
// panel, an off-screen slide, a 1 px "visually hidden" box) is not visible, so not judged.
function (mode, limits) {
  const html = document.documentElement;
  const body = document.body;
  if (!body) return null;
  void body.offsetHeight;  // the layout first: the time limit is for the reading
  const started = performance.now();
  // Past limits.ms the reading stops, once a fair share is read (a slow machine still reads some).
  const overTime = (count) => count >= 100 && performance.now() - started > limits.ms;
  const styles = new Map();
  const style = (el) => {
    let cs = styles.get(el);
    if (!cs) { cs = getComputedStyle(el); styles.set(el, cs); }
    return cs;
  };
  const flatParent = (node) => node.assignedSlot || node.parentElement
    || (node.parentNode instanceof ShadowRoot ? node.parentNode.host : null);
  const HIDES = /^(hidden|clip)$/;
  const contains = /\b(paint|layout|strict|content)\b/;
  const holdsAbsolute = (cs) => cs.position !== 'static' || holdsFixed(cs);
  const holdsFixed = (cs) => cs.transform !== 'none' || cs.filter !== 'none' || cs.perspective !== 'none'
    || contains.test(cs.contain) || /transform|filter|perspective/.test(cs.willChange);
  const SKIP = /^(script|style|noscript|template|title|option|optgroup|select|textarea|datalist)$/;
  const visibleElement = (el) => (el.checkVisibility
    ? el.checkVisibility({opacityProperty: true, visibilityProperty: true})
    : a11yProbe.isRendered(el));
  // Icon fonts (private use area), symbols and emoji alone are not text to read.
  const readable = (data) => /[\p{L}\p{N}]/u.test(data.replace(/[\uE000-\uF8FF]/g, ''));

  // What following text up the tree reads of an element's style, which the spacing does
  // not change: read once.
  const layouts = new Map();
  const layoutOf = (el) => {
    let found = layouts.get(el);
    if (!found) {
      const cs = style(el);
      found = {
        overflowX: cs.overflowX, overflowY: cs.overflowY, position: cs.position,
        overflows: cs.display !== 'inline' && cs.display !== 'contents' && (cs.overflowX !== 'visible' || cs.overflowY !== 'visible'),
        hidesItself: cs.clipPath !== 'none' || (cs.clip !== 'auto' && /absolute|fixed/.test(cs.position)),
        holdsAbsolute: holdsAbsolute(cs), holdsFixed: holdsFixed(cs),
      };
      layouts.set(el, found);
    }
    return found;
  };
  let boxes = new Map();
  const paddingBox = (el) => {
    let box = boxes.get(el);
    if (!box) {
      const r = el.getBoundingClientRect();
      const left = r.left + el.clientLeft;
      const top = r.top + el.clientTop;
      box = {left, top, right: left + el.clientWidth, bottom: top + el.clientHeight, height: r.height, width: r.width};
      boxes.set(el, box);
    }
    return box;
  };

  // The text node's line boxes now, followed up to the body: {rects (what shows), cuts (per
  // hiding ancestor: {el, axis, hiddenWidth, hiddenLines, cutLines, minShown})}, or null
  // when nothing of it shows or it is hidden on purpose (a box of 1 px, clip, clip-path).
  const range = document.createRange();
  const follow = (text) => {
    range.selectNodeContents(text);
    let rects = [...range.getClientRects()].filter((r) => r.width >= 1 && r.height >= 1)
      .map((r) => ({left: r.left, top: r.top, right: r.right, bottom: r.bottom, h: r.height}));
    if (!rects.length) return null;
    const cuts = [];
    let state = 'flow';
    for (let el = flatParent(text); el && el !== body && el !== html; el = flatParent(el)) {
      const cs = layoutOf(el);
      const applies = state === 'flow' || (state === 'absolute' && cs.holdsAbsolute) || (state === 'fixed' && cs.holdsFixed);
      if (applies) {
        if (cs.hidesItself) return null;
        if (cs.overflows) {
          if (el.clientWidth <= 1 || el.clientHeight <= 1) return null;
          const box = paddingBox(el);
          for (const axis of ['x', 'y']) {
            const value = axis === 'x' ? cs.overflowX : cs.overflowY;
            if (value === 'visible') continue;
            const [lo, hi] = axis === 'x' ? ['left', 'right'] : ['top', 'bottom'];
            if (HIDES.test(value)) {
              let hiddenWidth = 0;
              let hiddenLines = 0;
              let cutLines = 0;
              let minShown = 1;
              for (const r of rects) {
                const size = r[hi] - r[lo];
                const shown = Math.max(0, Math.min(r[hi], box[hi]) - Math.max(r[lo], box[lo]));
                if (axis === 'x') {
                  hiddenWidth = Math.max(hiddenWidth, size - shown);
                  if (shown <= 0) hiddenLines += 1;
                  continue;
                }
                // A sliver of a line's glyph box (its ascent above the letters) or a line
                // trimmed by a pixel or two is not a cut through letters.
                const part = shown / size;
                if (part <= 0.15) hiddenLines += 1;
                else if (part < 0.85 && shown < size - 0.5) { cutLines += 1; minShown = Math.min(minShown, part); }
              }
              if (hiddenWidth > 0.5 || hiddenLines || cutLines) cuts.push({el, axis, hiddenWidth, hiddenLines, cutLines, minShown, lines: rects.length});
            }
            rects = rects.map((r) => ({...r, [lo]: Math.max(r[lo], box[lo]), [hi]: Math.min(r[hi], box[hi])}))
              .filter((r) => r.right - r.left >= 1 && r.bottom - r.top >= 1);
            if (!rects.length) return null;
          }
        }
        if (state !== 'flow') state = 'flow';
      }
      if (cs.position === 'absolute') state = state === 'fixed' ? 'fixed' : 'absolute';
      else if (cs.position === 'fixed') state = 'fixed';
    }
    return {rects, cuts};
  };

  const fontSize = (el) => parseFloat(style(el).fontSize) || 16;
  const lineHeight = (el) => {
    const value = parseFloat(style(el).lineHeight);
    return Number.isFinite(value) ? value : 1.2 * fontSize(el);
  };
  const ellipsis = (el) => {
    const cs = style(el);
    return /nowrap|pre/.test(cs.whiteSpace) && cs.textOverflow && cs.textOverflow !== 'clip';
  };
  const clamped = (el) => {
    const cs = style(el);
    const clamp = cs.webkitLineClamp || cs.getPropertyValue('-webkit-line-clamp');
    return clamp && clamp !== 'none';
  };
  // A cut that loses text: along x more than half a character; along y a whole line or
  // more than a quarter of a line's glyphs.
  const losing = (cut, size) => (cut.axis === 'x' ? cut.hiddenWidth >= 0.5 * size : cut.hiddenLines > 0 || (cut.cutLines > 0 && cut.minShown < 0.75));

  // A slide of a carousel: the text sits in one of several boxes laid side by side inside the
  // clipping element, and that box is partly outside it.
  const inSlide = (text, clipper) => {
    const box = paddingBox(clipper);
    for (let el = flatParent(text); el && el !== clipper; el = flatParent(el)) {
      const parent = flatParent(el);
      if (!parent || parent.children.length < 2) continue;
      const r = el.getBoundingClientRect();
      if (r.left >= box.left - 1 && r.right <= box.right + 1) continue;
      const siblings = [...parent.children].slice(0, 12).map((c) => c.getBoundingClientRect());
      if (siblings.some((s) => Math.abs(s.left - r.left) > 1 && s.top < r.bottom && r.top < s.bottom)) return true;
    }
    return false;
  };
  // A "Read more" next to a clipped excerpt: the page may offer the rest.
  const MORE = /\b(more|expand|show|read|mehr|plus|más|meer|więcej)\b/i;
  const offersMore = (clipper) => {
    const scope = flatParent(clipper) || clipper;
    for (const control of scope.querySelectorAll('button, [role="button"], a, summary, [aria-expanded]')) {
      if (control.hasAttribute('aria-expanded') || MORE.test(control.textContent || control.getAttribute('aria-label') || '')) return true;
    }
    return false;
  };

  const sample = (text) => text.data.trim().replace(/\s+/g, ' ').slice(0, 60);
  const candidateText = (text) => {
    const el = text.parentElement;
    if (!el || SKIP.test(el.localName) || el.namespaceURI !== 'http://www.w3.org/1999/xhtml') return false;
    if (!readable(text.data) || !visibleElement(el)) return false;
    return !/^(transparent|rgba\(0, 0, 0, 0\))$/.test(style(el).color);
  };

  if (mode === 'clipped') return clippedNow();
  return spacing();

  // ----------------------------------------------------------------- WCAG 1.4.4, ACT 59br37
  function clippedNow() {
    const clippers = [];
    let applies = false;
    let elements = 0;
    for (const el of body.querySelectorAll('*')) {
      if ((elements += 1) > limits.elements) break;
      if (el.namespaceURI !== 'http://www.w3.org/1999/xhtml') continue;
      const cs = style(el);
      if (!HIDES.test(cs.overflowX) && !HIDES.test(cs.overflowY)) continue;
      if (!applies && el.clientWidth > 1 && el.clientHeight > 1 && el.textContent.trim()) applies = true;
      if (cs.overflowX === 'clip' || cs.overflowY === 'clip' || el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1) {
        clippers.push(el);
        if (clippers.length >= limits.clippers) break;
      }
    }
    const failed = new Map();
    const review = new Map();
    const seen = new Set();
    let checked = 0;
    for (const clipper of clippers) {
      const walker = document.createTreeWalker(clipper, NodeFilter.SHOW_TEXT);
      let inThis = 0;
      for (let text = walker.nextNode(); text && inThis < limits.perClipper; text = walker.nextNode()) {
        if (seen.has(text) || !candidateText(text) || text.parentElement.closest('[aria-hidden="true"]')) continue;
        if (a11yProbe.openedInPhase(text.parentElement)) continue;
        seen.add(text);
        inThis += 1;
        checked += 1;
        const followed = follow(text);
        if (!followed) continue;
        applies = true;
        for (const cut of followed.cuts) {
          const size = fontSize(text.parentElement);
          if (!losing(cut, size)) continue;
          const el = cut.el;
          if (cut.axis === 'x' && ellipsis(el)) continue;
          if (clamped(el)) continue;
          if (cut.axis === 'y') {
            const height = style(el).overflowY === 'clip' ? el.clientHeight : paddingBox(el).height;
            const oneLine = lineHeight(el) >= height - 0.5 && !(cut.cutLines > 0 && cut.minShown < 0.75);
            if (oneLine) continue;
          }
          const why = cut.axis === 'x' && inSlide(text, el) ? 'a slide' : offersMore(el) ? 'more' : '';
          const into = why ? review : failed;
          const key = a11yProbe.idOf(el);
          if (!into.has(key)) {
            const cs = style(el);
            into.set(key, {
              ...a11yProbe.describe(el), label: a11yProbe.label(el), axis: cut.axis, sample: sample(text), why,
              hiddenLines: cut.hiddenLines, lines: cut.lines, hiddenWidth: Math.round(cut.hiddenWidth),
              overflow: `${cs.overflowX === cs.overflowY ? cs.overflowX : `${cs.overflowX} ${cs.overflowY}`}`,
              width: Math.round(paddingBox(el).width), height: Math.round(paddingBox(el).height),
            });
          }
          break;
        }
        if (overTime(checked)) break;
      }
      if (overTime(checked)) break;
    }
    return {applies, failed: [...failed.values()], review: [...review.values()], checked};
  }

  // ----------------------------------------------------------------- WCAG 1.4.12
  function spacing() {
    const SPACING = ['line-height', 'letter-spacing', 'word-spacing'];
    const authorWins = (el) => {
      for (let node = el; node && node !== html; node = node.parentElement) {
        if (node.style && SPACING.some((p) => node.style.getPropertyPriority(p) === 'important')) return true;
      }
      return false;
    };
    const moving = new Set();
    for (const animation of document.getAnimations()) {
      const target = animation.effect && animation.effect.target;
      if (target && animation.playState === 'running') moving.add(target);
    }
    const movingAncestor = (el) => {
      for (const target of moving) if (target.contains(el)) return true;
      return false;
    };
    const texts = [];
    const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text && texts.length < limits.texts; text = walker.nextNode()) {
      if (!text.data.trim() || !candidateText(text)) continue;
      const el = text.parentElement;
      if (authorWins(el) || (moving.size && movingAncestor(el))) continue;
      texts.push(text);
      if (overTime(texts.length)) break;
    }
    if (!texts.length) return {applies: false, clipped: [], overlaps: [], ellipsis: [], checked: 0};
    const measure = () => {
      boxes = new Map();
      return texts.map((text) => follow(text));
    };
    const before = measure();
    const sheet = document.createElement('style');
    sheet.textContent = '* { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important; }'
      + ' p { margin-bottom: 2em !important; }';
    sheet.setAttribute('data-a11y-probe', 'text-spacing');
    (document.head || html).appendChild(sheet);
    let after;
    let sizes;
    try {
      void body.offsetHeight;
      after = measure();
      sizes = texts.map((text) => fontSize(text.parentElement));
    } finally {
      sheet.remove();
    }
    const clipped = new Map();
    const ellipsized = new Map();
    texts.forEach((text, i) => {
      if (!before[i] || !after[i] || before[i].cuts.length) return;
      for (const cut of after[i].cuts) {
        if (!losing(cut, sizes[i])) continue;
        const into = cut.axis === 'x' && ellipsis(cut.el) ? ellipsized : clipped;
        const key = a11yProbe.idOf(cut.el);
        if (!into.has(key)) {
          into.set(key, {
            ...a11yProbe.describe(cut.el), label: a11yProbe.label(cut.el), axis: cut.axis, sample: sample(text),
            hiddenLines: cut.hiddenLines, lines: cut.lines, hiddenWidth: Math.round(cut.hiddenWidth),
          });
        }
        break;
      }
    });
    const pairs = (measured) => {
      const rects = [];
      measured.forEach((m, i) => { if (m) for (const r of m.rects) rects.push({...r, i}); });
      rects.sort((a, b) => a.top - b.top);
      const found = new Map();
      for (let a = 0; a < rects.length; a += 1) {
        const ra = rects[a];
        for (let b = a + 1; b < rects.length && rects[b].top < ra.bottom; b += 1) {
          const rb = rects[b];
          if (rb.i === ra.i) continue;
          const width = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
          const height = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
          if (width > 2 && height > 0.3 * Math.min(ra.bottom - ra.top, rb.bottom - rb.top)) {
            const [i, j] = ra.i < rb.i ? [ra.i, rb.i] : [rb.i, ra.i];
            found.set(`${i}:${j}`, [i, j]);
          }
        }
        if (found.size > 2000) break;
      }
      return found;
    };
    const old = pairs(before);
    const overlaps = [];
    const blamed = new Set();
    for (const [key, [i, j]] of pairs(after)) {
      if (old.has(key) || !before[i] || !before[j]) continue;
      const el = texts[i].parentElement;
      const other = texts[j].parentElement;
      if (el.contains(other) || other.contains(el) || blamed.has(el)) continue;
      // A popup the phase's actions opened stays where the page's script placed it for the
      // layout before the spacing: text growing under it is not the page's failure.
      if (a11yProbe.openedInPhase(el) || a11yProbe.openedInPhase(other)) continue;
      blamed.add(el);
      overlaps.push({
        ...a11yProbe.describe(el), label: a11yProbe.label(el), sample: sample(texts[i]),
        otherLabel: a11yProbe.label(other), otherSample: sample(texts[j]),
      });
      if (overlaps.length >= limits.reported) break;
    }
    return {
      applies: true, clipped: [...clipped.values()].slice(0, limits.reported), overlaps,
      ellipsis: [...ellipsized.values()].slice(0, limits.reported), checked: texts.length,
      ms: Math.round(performance.now() - started),
    };
  }
}
