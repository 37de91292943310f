// Expression evaluating to a function (node, virtualNode), the matches of a11y-focus-visible:
// returns true for an element of the top document in sequential focus order that was focused,
// compared and unfocused within the run's budget (the first LIMIT such elements; BUDGET_MS of
// work is only a safety stop for pages where focusing is slow) and kept focus once focused;
// the verdict it measured is kept for the evaluate (in the isolated world's own state, reset
// with each run).
/* global axe */
(function () {
  const STATE = Symbol.for('a11y.focusVisible');
  const LIMIT = 25;
  const BUDGET_MS = 300;
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
  // How an element looks, as far as its computed style and box say (a zero-width or
  // style-none outline looks like none, whatever its colour); with its ::before and ::after
  // when asked.
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
  // Where a focus indicator may be drawn without script: the element, what it contains (its
  // first elements), its nearest ancestors (:focus-within) and its nearest siblings (sibling
  // selectors); the first CLOSE of them with their ::before and ::after.
  const CLOSE = 6;
  const around = (el) => {
    const near = [el];
    const walker = el.ownerDocument.createTreeWalker(el, NodeFilter.SHOW_ELEMENT);
    while (near.length < CLOSE && walker.nextNode()) near.push(walker.currentNode);
    for (const step of ['previousElementSibling', 'nextElementSibling']) {
      if (el[step]) near.push(el[step]);
    }
    for (let up = el.parentElement, level = 0; up && level < 5; up = up.parentElement, level++) near.push(up);
    return near;
  };
  const textEntry = (el) => el.isContentEditable || el.localName === 'textarea' ||
    (el.localName === 'input' && TEXT_ENTRY.test((el.getAttribute('type') || '').toLowerCase()));
  // Transitions the last focus change started, run to their end (what the user sees a moment
  // later, and what the page shows again once focus is back).
  const settle = (doc, before) => {
    for (const animation of doc.getAnimations()) {
      if (animation instanceof CSSTransition && !before.has(animation)) animation.finish();
    }
  };
  const sameRanges = (selection, ranges) => selection.rangeCount === ranges.length && ranges.every((range, i) => {
    const now = selection.getRangeAt(i);
    return now.startContainer === range.startContainer && now.startOffset === range.startOffset &&
      now.endContainer === range.endContainer && now.endOffset === range.endOffset;
  });
  // Focus the element, note how everything that could show it looks (and whatever the page's
  // focus handlers changed), give focus back, and compare: true when something changed, false
  // when nothing did, undefined for a text field whose only sign may be its caret; null when
  // it would not keep focus. Focus, selection, scroll and transitions are left as they were.
  const measure = (el) => {
    const doc = el.ownerDocument;
    const previous = doc.activeElement;
    const selection = doc.getSelection();
    const ranges = selection ? Array.from({ length: selection.rangeCount }, (_, i) => selection.getRangeAt(i).cloneRange()) : [];
    const scroll = [window.scrollX, window.scrollY];
    const transitions = new Set(doc.getAnimations().filter((animation) => animation instanceof CSSTransition));
    const giveBack = () => {
      if (previous && previous !== doc.body && previous.focus) previous.focus({ preventScroll: true });
      else if (doc.activeElement && doc.activeElement.blur) doc.activeElement.blur();
    };
    const observer = new MutationObserver(() => {});
    observer.observe(doc, { attributes: true, childList: true, subtree: true, characterData: true });
    let verdict = null;
    try {
      if (previous === el) el.blur();
      observer.takeRecords();
      el.focus({ preventScroll: true, focusVisible: true });
      if (doc.activeElement !== el) return null;
      const changed = observer.takeRecords().map((record) =>
        record.target.nodeType === Node.ELEMENT_NODE ? record.target : record.target.parentElement);
      settle(doc, transitions);
      const watched = Array.from(new Set(around(el).concat(changed.filter(Boolean).slice(0, 20))));
      const focused = watched.map((node, i) => look(node, i < CLOSE));
      el.blur();
      settle(doc, transitions);
      if (watched.some((node, i) => look(node, i < CLOSE) !== focused[i])) verdict = true;
      else verdict = textEntry(el) ? undefined : false;
    } finally {
      observer.disconnect();
      giveBack();
      settle(doc, transitions);
      if (selection && !sameRanges(selection, ranges)) {
        selection.removeAllRanges();
        ranges.forEach((range) => selection.addRange(range));
      }
      if (window.scrollX !== scroll[0] || window.scrollY !== scroll[1]) window.scrollTo(scroll[0], scroll[1]);
    }
    return verdict;
  };
  return function (node, virtualNode) {
    // Focus styles apply only in a document that has focus: without it nothing can be told.
    if (window.top !== window || !document.hasFocus() || !axe.commons.dom.isInTabOrder(virtualNode)) return false;
    let state = window[STATE];
    if (!state || state.tree !== axe._tree) {
      state = window[STATE] = { tree: axe._tree, count: 0, spentMs: 0, verdicts: new WeakMap() };
    }
    if (state.count >= LIMIT || state.spentMs >= BUDGET_MS) return false;
    const started = performance.now();
    const verdict = measure(node);
    state.spentMs += performance.now() - started;
    state.count += 1;
    if (verdict === null) return false;
    state.verdicts.set(node, verdict);
    return true;
  };
})()
