// Function expression (node), the axe check of a11y-visual-heading, run on a short block of
// text: returns false (the heading it looks like as related node) when it is on one line,
// clearly larger or bolder than the page's body text, followed by body text, and styled
// exactly as a real heading of the page (font size, weight, family, style, case) that is
// itself clearly larger than body text: the page's own headings show it is a heading to the
// eye; undefined when it looks like a heading otherwise (larger or bold, on one line, followed
// by body text) but matches no real heading; true otherwise.
/* global axe */
(function (node) {
  const { dom } = axe.commons;
  const doc = node.ownerDocument;
  const clean = (text) => text.replace(/\s+/g, ' ').trim();
  const size = (style) => parseFloat(style.fontSize) || 0;
  const bold = (style) => parseInt(style.fontWeight, 10) >= 600;
  const textNodes = (root, limit) => {
    const found = [];
    const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    while (walker.nextNode() && found.length < limit) {
      const current = walker.currentNode;
      if (/\S/.test(current.data) && current.parentElement) found.push(current);
    }
    return found;
  };
  // The page's body text (the font size and weight most of its characters have) and its
  // visible headings' styles, once per document.
  const page = axe._cache.get('a11y-visual-heading', () => new Map());
  if (!page.has(doc)) {
    const sizes = new Map();
    let boldChars = 0;
    let chars = 0;
    // Body text is running text: paragraphs, list items, cells, quotes (navigation, menus
    // and tables of contents, often many short links in smaller type, are not); all text when
    // the page has none.
    const all = textNodes(doc.body, 4000).filter((text) => !text.parentElement.closest(
      'script, style, noscript, template, h1, h2, h3, h4, h5, h6, [role="heading"]',
    ));
    const running = all.filter((text) => text.parentElement.closest('p, li, dd, td, blockquote')
      && !text.parentElement.closest('nav, [role="navigation"], a, button, pre, code'));
    for (const text of running.length >= 5 ? running : all) {
      const parent = text.parentElement;
      const style = window.getComputedStyle(parent);
      if (style.display === 'none' || style.visibility !== 'visible') continue;
      const length = clean(text.data).length;
      const key = Math.round(size(style) * 2) / 2;
      sizes.set(key, (sizes.get(key) || 0) + length);
      chars += length;
      if (bold(style)) boldChars += length;
    }
    const body = Array.from(sizes.entries()).sort((a, b) => b[1] - a[1])[0];
    const headings = Array.from(doc.querySelectorAll('h1, h2, h3, h4, h5, h6, [role="heading"]'))
      .filter((el) => dom.isVisibleOnScreen(el))
      .map((el) => [el, textNodes(el, 1)[0]])
      .filter(([, text]) => text)
      .map(([el, text]) => [el, window.getComputedStyle(text.parentElement)]);
    page.set(doc, { size: body ? body[0] : 16, bold: boldChars * 2 > chars, headings });
  }
  const { size: bodySize, bold: bodyBold, headings } = page.get(doc);

  // The candidate's own text style: every piece of its text must share it.
  const styles = textNodes(node, 50).map((text) => window.getComputedStyle(text.parentElement));
  if (!styles.length) return true;
  const style = styles[0];
  if (styles.some((other) => Math.abs(size(other) - size(style)) > 0.5 || bold(other) !== bold(style))) return true;
  const larger = size(style) >= bodySize * 1.2;
  if (!larger && !(bold(style) && !bodyBold)) return true;

  // On one line.
  const range = doc.createRange();
  range.selectNodeContents(node);
  const tops = new Set(Array.from(range.getClientRects()).filter((rect) => rect.width > 0).map((rect) => Math.round(rect.bottom)));
  if (tops.size !== 1) return true;
  const box = node.getBoundingClientRect();

  // Not a subtitle: larger but not bold, right after a heading.
  const before = node.previousElementSibling;
  if (!bold(style) && before && before.matches('h1, h2, h3, h4, h5, h6, [role="heading"]')) return true;

  // Followed, below it, by body text: smaller or lighter; not a heading, a link, a control or
  // code.
  const walker = doc.createTreeWalker(doc.body, NodeFilter.SHOW_TEXT);
  walker.currentNode = node;
  let next = null;
  while (walker.nextNode()) {
    const current = walker.currentNode;
    if (node.contains(current) || !/[\p{L}\p{N}]/u.test(current.data)) continue;
    if (!dom.isVisibleOnScreen(current.parentElement)) continue;
    next = current.parentElement;
    break;
  }
  const NOT_BODY = 'h1, h2, h3, h4, h5, h6, [role="heading"], a, button, label, input, select, textarea, '
    + '[role="button"], [role="link"], pre, code, samp, kbd';
  if (!next || next.closest(NOT_BODY)) {
    return true;
  }
  const nextStyle = window.getComputedStyle(next);
  if (!(size(nextStyle) < size(style) * 0.9 || (bold(style) && !bold(nextStyle)))) return true;
  if (next.getBoundingClientRect().top < box.bottom - 2) return true;
  let block = next;
  while (block.parentElement && window.getComputedStyle(block).display.startsWith('inline')) block = block.parentElement;
  if (clean(block.textContent).length < 30 && !block.closest('ul, ol, dl, table')) return true;

  // The same look as a real heading that is clearly larger than body text: a heading.
  const same = headings.find(([, other]) => Math.abs(size(other) - size(style)) <= 0.5
    && bold(other) === bold(style) && other.fontFamily === style.fontFamily && other.fontStyle === style.fontStyle
    && other.textTransform === style.textTransform && size(other) >= bodySize * 1.15);
  if (same) {
    this.relatedNodes([same[0]]);
    return false;
  }
  return undefined;
})
