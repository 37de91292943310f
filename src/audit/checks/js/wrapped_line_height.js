// Function expression (original), an override of axe's important-line-height check: returns
// its evaluate, which also fails an element whose own !important line height (not an inherited
// keyword) is below the minimum when its own text wraps onto several lines that axe took for
// one (with a tight line height the glyph boxes of consecutive lines overlap, and axe counts
// overlapping boxes as one line).
(function (original) {
  const INHERITED = ['inherit', 'unset', 'revert', 'revert-layer'];
  const ownText = (node) =>
    Array.from(node.childNodes).filter((child) => child.nodeType === Node.TEXT_NODE && child.data.trim());
  // The element's own text wraps: its lines start at least half a line height apart.
  const wraps = (texts, lineHeight) => {
    const tops = [];
    for (const text of texts) {
      const range = text.ownerDocument.createRange();
      range.selectNodeContents(text);
      for (const rect of range.getClientRects()) {
        if (rect.height <= 2) continue;
        if (!tops.some((top) => Math.abs(top - rect.top) < lineHeight / 2)) tops.push(rect.top);
        if (tops.length > 1) return true;
      }
    }
    return false;
  };
  return function (node, options, virtualNode) {
    const verdict = original.call(this, node, options, virtualNode);
    if (verdict !== true || node.style.getPropertyPriority('line-height') !== 'important') return verdict;
    if (INHERITED.includes(node.style.getPropertyValue('line-height').trim().toLowerCase())) return verdict;
    const texts = ownText(node);
    if (!texts.length) return verdict;
    const style = getComputedStyle(node);
    const lineHeight = parseFloat(style.lineHeight);
    const fontSize = parseFloat(style.fontSize);
    if (!(lineHeight > 0) || !(fontSize > 0)) return verdict;
    const ratio = Math.round((lineHeight / fontSize) * 100) / 100;
    if (ratio >= options.minValue || !wraps(texts, lineHeight)) return verdict;
    this.data({ value: ratio, minValue: options.minValue });
    return false;
  };
})
