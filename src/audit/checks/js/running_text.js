// Function expression (kind), called once when the checks are configured: returns the matches
// (node) of a block of running text for a11y-text-not-justified (kind 'justify': wraps onto
// 2 lines or more), a11y-line-length (kind 'length': 3 lines or more, so that 2 are full) or
// a11y-long-passage-style (kind 'style': 200 characters or more). A block of running text is an
// element laid out as a block (not inline) whose own inline content (text outside its
// block-level descendants, code, controls, SVG and preformatted text left out; text with
// visibility hidden too) is prose: 8 words or more, in horizontal writing, wrapping. Whether it
// is seen on screen at all (not clipped away, off screen or transparent) is a costly test, which
// the evaluates make only before they report a block.
/* global axe */
(function (kind) {
  const EXCLUDED = 'script, style, noscript, template, textarea, select, option, button, pre, code, kbd, ' +
    'samp, svg, math, [contenteditable=""], [contenteditable="true"]';
  const LETTER = /\p{L}/u;
  const WORDS = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;
  const flows = (display) => display === 'contents' || display.startsWith('inline') || display === 'ruby';

  // Each block of the root, with its own text nodes; built once per root and run (axe clears
  // its cache after each run).
  const blocksOf = (root) => {
    const byRoot = axe._cache.get('a11y-running-text', () => new Map());
    if (byRoot.has(root)) return byRoot.get(root);
    const blocks = new Map();
    const blockOf = new Map();
    const find = (element) => {
      const path = [];
      let el = element;
      while (el && !blockOf.has(el)) {
        path.push(el);
        if (!flows(getComputedStyle(el).display)) break;
        el = el.parentElement;
      }
      const block = el ? (blockOf.has(el) ? blockOf.get(el) : el) : null;
      for (const step of path) blockOf.set(step, block);
      return block;
    };
    const doc = root.ownerDocument || root;
    const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      const parent = t.parentElement;
      if (!parent || !LETTER.test(t.data) || parent.closest(EXCLUDED)) continue;
      if (getComputedStyle(parent).visibility !== 'visible') continue;
      const block = find(parent);
      if (!block) continue;
      if (!blocks.has(block)) blocks.set(block, { texts: [] });
      blocks.get(block).texts.push(t);
    }
    byRoot.set(root, blocks);
    return blocks;
  };

  // Lines of the block's own text: client rects grouped by their vertical middle.
  const countLines = (texts) => {
    const lines = [];
    const range = texts[0].ownerDocument.createRange();
    for (const t of texts) {
      range.selectNodeContents(t);
      for (const rect of range.getClientRects()) {
        if (rect.width < 1 || rect.height < 1) continue;
        const middle = (rect.top + rect.bottom) / 2;
        const line = lines.find((l) => middle >= l.top && middle <= l.bottom);
        if (line) {
          line.top = Math.min(line.top, rect.top);
          line.bottom = Math.max(line.bottom, rect.bottom);
        } else {
          lines.push({ top: rect.top, bottom: rect.bottom });
        }
      }
    }
    return lines.length;
  };

  const prose = (node) => {
    const entry = blocksOf(node.getRootNode()).get(node);
    if (!entry) return null;
    if (entry.prose === undefined) {
      const style = getComputedStyle(node);
      const text = entry.texts.map((t) => t.data).join('').replace(/\s+/g, ' ').trim();
      const words = (text.match(WORDS) || []).length;
      const horizontal = style.writingMode === 'horizontal-tb';
      const wraps = !['pre', 'nowrap'].includes(style.whiteSpace) && style.textWrapMode !== 'nowrap';
      const lines = words >= 8 && horizontal && wraps ? countLines(entry.texts) : 0;
      entry.prose = lines > 0 ? { text, words, lines } : null;
    }
    return entry.prose;
  };

  return function (node) {
    if (node.nodeType !== Node.ELEMENT_NODE || node.namespaceURI !== 'http://www.w3.org/1999/xhtml') return false;
    const found = prose(node);
    if (!found) return false;
    return { justify: found.lines >= 2, length: found.lines >= 3 }[kind] ?? found.text.length >= 200;
  };
})
