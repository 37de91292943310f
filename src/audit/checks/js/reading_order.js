// Function expression (node), the axe check of a11y-reading-order: returns undefined (needs
// review, the blocks out of order as related nodes) when the order a screen reader and the
// keyboard follow (the DOM) differs from the order the eye reads. For a flex or grid container
// that is reversed or reorders its children, or an element whose children float against the
// direction of text: its children with text appear in another order than the DOM's (top to
// bottom, then left to right; right to left in a right-to-left container). For a positioned
// element with text: a block of text before it in the DOM is drawn entirely below it. True
// otherwise.
/* global axe */
(function (node) {
  const { dom } = axe.commons;
  const words = (el) => el.textContent.replace(/\s+/g, ' ').trim();
  const style = window.getComputedStyle(node);
  const positioned = ['absolute', 'fixed'].includes(style.position);
  const against = style.direction === 'rtl' ? 'left' : 'right';
  const reordered = /flex|grid/.test(style.display) && node.children.length >= 2 && (/reverse/.test(style.flexDirection)
    || Array.from(node.children).some((child) => window.getComputedStyle(child).order !== '0'))
    || Array.from(node.children).filter((child) => window.getComputedStyle(child).float === against).length >= 2;
  if (reordered) {
    const rtl = style.direction === 'rtl';
    const items = Array.from(node.children).filter((el) => dom.isVisibleOnScreen(el) && /[\p{L}\p{N}]{2}/u.test(words(el)));
    if (items.length >= 2) {
      const boxes = new Map(items.map((el) => [el, el.getBoundingClientRect()]));
      const before = (a, b) => {
        const ra = boxes.get(a);
        const rb = boxes.get(b);
        if (ra.bottom <= rb.top + 2) return -1;
        if (rb.bottom <= ra.top + 2) return 1;
        return rtl ? rb.right - ra.right : ra.left - rb.left;
      };
      const seen = items.slice().sort(before);
      const moved = items.filter((el, i) => seen[i] !== el);
      if (moved.length) {
        this.relatedNodes(moved);
        return undefined;
      }
    }
  }
  if (!positioned || !dom.isVisibleOnScreen(node)) return true;
  // A positioned block drawn above a block of text that comes before it in the DOM.
  const box = node.getBoundingClientRect();
  if (box.width < 2 || box.height < 2) return true;
  const doc = node.ownerDocument;
  const walker = doc.createTreeWalker(doc.body, NodeFilter.SHOW_TEXT);
  walker.currentNode = node;
  for (let steps = 0; walker.previousNode() && steps < 300; steps += 1) {
    const text = walker.currentNode;
    const parent = text.parentElement;
    if (!parent || parent.contains(node) || node.contains(parent) || text.data.trim().length < 20) continue;
    if (!dom.isVisibleOnScreen(parent)) continue;
    const range = doc.createRange();
    range.selectNodeContents(text);
    const other = range.getBoundingClientRect();
    if (other.width && box.bottom <= other.top + 1 && box.left < other.right && other.left < box.right) {
      this.relatedNodes([parent]);
      return undefined;
    }
  }
  return true;
})
