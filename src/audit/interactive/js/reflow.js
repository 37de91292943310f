/* global a11yProbe */
// Function expression (limits): at the window's current (narrow) width, how far the document scrolls sideways and the content that sticks out past its edge, grouped by the box responsible ({scroll, width, rootClips, culprits: [{target, html, label, reach, kinds, sample, kind: 'ordinary'|'exempt'|'unclear', why, cut}]}).
// Content is text (its line boxes), images, media and controls: a box that is merely too wide
// while its content wraps inside the window makes nobody scroll. A part hidden by an ancestor
// that clips or scrolls on its own is not reached by scrolling the document, so it is not
// counted. Exempt is what WCAG 1.4.10 lets need two dimensions: data tables, code, maps and
// diagrams, media, toolbars and grids. A popup, tooltip or effect that the interaction phase's
// own actions opened and left (a11yProbe.openedInPhase) is where the page's script put it for
// the wider window, not where it would put it in this one: not counted.
function (limits) {
  const html = document.documentElement;
  const body = document.body;
  if (!body) return null;
  const rtl = getComputedStyle(body).direction === 'rtl';
  const width = html.clientWidth;
  const scroller = document.scrollingElement || html;
  const scroll = scroller.scrollWidth - scroller.clientWidth;
  const clipsX = (el) => /^(hidden|clip)$/.test(getComputedStyle(el).overflowX);
  const rootClips = clipsX(html) || (getComputedStyle(html).overflowX === 'visible' && clipsX(body));
  if (scroll <= 1 && !rootClips) return {scroll: 0, width, rootClips, culprits: []};
  const tol = limits.tolerance;
  const scrollX = window.scrollX;
  // How far past the edge a box reaches (positive: out of the window).
  const beyond = (rect) => (rtl ? -(rect.left + scrollX) : rect.right + scrollX - width);

  const styles = new Map();
  const style = (el) => {
    let cs = styles.get(el);
    if (!cs) { cs = getComputedStyle(el); styles.set(el, cs); }
    return cs;
  };
  const parentOf = (el) => el.parentElement || (el.getRootNode() instanceof ShadowRoot ? el.getRootNode().host : null);

  // The reach past the edge that only scrolling the document shows: clipped by every ancestor
  // whose overflow-x is not visible (it hides or scrolls the rest itself); null inside a
  // fixed box (it does not scroll with the document) or when nothing is left.
  const reachOf = (el, rect) => {
    let left = rect.left;
    let right = rect.right;
    for (let node = el; node && node !== body && node !== html; node = parentOf(node)) {
      const cs = style(node);
      if (cs.position === 'fixed') return null;
      if (node !== el && cs.overflowX !== 'visible') {
        const box = node.getBoundingClientRect();
        left = Math.max(left, box.left + node.clientLeft);
        right = Math.min(right, box.left + node.clientLeft + node.clientWidth);
        if (right - left <= 0) return null;
      }
    }
    return beyond({left, right});
  };

  const visible = (el) => el.checkVisibility
    ? el.checkVisibility({opacityProperty: true, visibilityProperty: true})
    : a11yProbe.isRendered(el);

  const EXEMPT = 'pre, code, samp, kbd, var, math, svg, canvas, video, audio, object, embed, map, '
    + '[role~="grid"], [role~="treegrid"], [role~="table"], [role~="toolbar"], [role~="application"], [role~="math"]';
  const DIAGRAM = /\b(map|plan|diagram|chart|graph|schema|schematic|infographic|floor ?plan|timeline|karte|carte|mapa)\b/i;
  const accessibleText = (el) => [el.getAttribute('alt'), el.getAttribute('aria-label'), el.getAttribute('title'),
    el.getAttribute('src')].filter(Boolean).join(' ');
  // What the content is, for WCAG 1.4.10: [kind, why].
  const classify = (el) => {
    const exempt = el.closest(EXEMPT);
    if (exempt) return ['exempt', exempt.localName === 'svg' || exempt.localName === 'canvas' ? 'a graphic' : `${exempt.localName}${exempt.getAttribute('role') ? `[role=${exempt.getAttribute('role')}]` : ''} content`];
    const table = el.closest('table');
    if (table) {
      const data = table.querySelector('th, caption, thead, [scope]') || /^(table|grid|treegrid)$/.test(table.getAttribute('role') || '');
      if (data) return ['exempt', 'a data table'];
      if (table.getAttribute('role') === 'presentation' || table.getAttribute('role') === 'none') return ['ordinary', 'a layout table'];
      return ['unclear', 'a table with no header cells'];
    }
    const frame = el.closest('iframe');
    if (frame) return DIAGRAM.test(accessibleText(frame)) || /youtube|vimeo|video|player|maps/i.test(frame.src || '')
      ? ['exempt', 'an embedded map or video'] : ['unclear', 'an embedded frame'];
    const image = el.closest('img, [role="img"], picture');
    if (image) {
      if (image.hasAttribute('usemap') || DIAGRAM.test(accessibleText(image))) return ['exempt', 'a map or diagram'];
      return ['unclear', 'an image'];
    }
    return ['ordinary', el.closest('nav, [role="navigation"]') ? 'navigation' : el.closest('form, input, select, textarea, button') ? 'a form' : 'text'];
  };

  // The box whose lines text is laid out in: the nearest ancestor that is not inline. A long
  // signature line of inline parts (`em`, `span`, `a`) is one line that does not wrap, whose
  // fix (let it wrap) is on that box, not on each part that happens to reach past the edge.
  const lineBox = (el) => {
    let node = el;
    while (node !== body && /^(inline|contents)$/.test(style(node).display) && parentOf(node)) node = parentOf(node);
    return node === body ? el : node;
  };
  const culprits = new Map();
  const note = (el, reach, what, sample) => {
    // The box responsible: the outermost ancestor below body that sticks out too, else the
    // content's own element; for text, the box its lines are in when that is an inline part
    // (an inline box that sticks out is only a piece of a line that does not wrap).
    let culprit = el;
    for (let node = parentOf(el); node && node !== html; node = parentOf(node)) {
      if (beyond(node.getBoundingClientRect()) > tol) culprit = node;
      if (node === body) break;
    }
    if (what === 'text') culprit = lineBox(culprit);
    const [kind, why] = classify(el);
    const key = `${a11yProbe.idOf(culprit)}:${kind}`;
    let entry = culprits.get(key);
    if (!entry) {
      entry = {culprit, kind, why, reach: 0, kinds: new Set(), sample: '', cut: false};
      culprits.set(key, entry);
    }
    entry.reach = Math.max(entry.reach, reach);
    entry.kinds.add(what);
    if (!entry.sample && sample) entry.sample = sample;
    const start = rtl ? el.getBoundingClientRect().right + scrollX : el.getBoundingClientRect().left + scrollX;
    if (rtl ? start > 0 : start < width) entry.cut = true;
  };

  void body.offsetHeight;  // the layout first: the time limit is for the reading
  const started = performance.now();
  let seen = 0;
  // Text: only under elements whose box or content reaches past the edge.
  const suspect = new Map();
  const reaches = (el) => {
    let answer = suspect.get(el);
    if (answer === undefined) {
      answer = beyond(el.getBoundingClientRect()) > tol || el.scrollWidth > el.clientWidth + 1;
      suspect.set(el, answer);
    }
    return answer;
  };
  const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  const SKIP = /^(script|style|noscript|template|title|option|textarea|select)$/;
  for (let text = walker.nextNode(); text && seen < limits.texts; text = walker.nextNode()) {
    const el = text.parentElement;
    if (!el || SKIP.test(el.localName) || !text.data.trim()) continue;
    seen += 1;
    if (!reaches(el) || !visible(el) || a11yProbe.openedInPhase(el)) continue;
    range.selectNodeContents(text);
    for (const rect of range.getClientRects()) {
      if (rect.width < 1 || rect.height < 1) continue;
      const reach = reachOf(el, rect);
      if (reach !== null && reach > tol) {
        note(el, reach, 'text', text.data.trim().replace(/\s+/g, ' ').slice(0, 60));
        break;
      }
    }
    if (seen >= 200 && performance.now() - started > limits.ms) break;
  }
  const REPLACED = 'img, svg, canvas, video, audio, iframe, object, embed, input:not([type="hidden"]), select, textarea, button, [role="img"]';
  let replaced = 0;
  for (const el of body.querySelectorAll(REPLACED)) {
    if ((replaced += 1) > limits.elements) break;
    if (el.parentElement && el.parentElement.closest('svg')) continue;
    const rect = el.getBoundingClientRect();
    if (rect.width < 2 || rect.height < 2 || beyond(rect) <= tol || !visible(el) || a11yProbe.openedInPhase(el)) continue;
    const reach = reachOf(el, rect);
    if (reach !== null && reach > tol) {
      const what = /^(input|select|textarea|button)$/.test(el.localName) ? 'a control' : el.localName === 'img' || el.getAttribute('role') === 'img' ? 'an image' : el.localName;
      note(el, reach, what, (el.getAttribute('alt') || el.getAttribute('aria-label') || '').slice(0, 60));
    }
  }
  const found = [...culprits.values()].sort((a, b) => b.reach - a.reach).slice(0, limits.culprits).map((entry) => ({
    ...a11yProbe.describe(entry.culprit), label: a11yProbe.label(entry.culprit), reach: Math.round(entry.reach),
    kinds: [...entry.kinds], sample: entry.sample, kind: entry.kind, why: entry.why, cut: entry.cut,
    boxWidth: Math.round(entry.culprit.getBoundingClientRect().width),
  }));
  return {scroll: Math.max(0, Math.round(scroll)), width, rootClips, culprits: found};
}
