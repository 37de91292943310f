// Function expression (node, options, virtualNode), the evaluate of a11y-adjacent-links-same-url:
// returns false when the link before this one, with nothing but white space (no text, no image,
// no control, shown or not) between them, leads to the same address, both are exposed and in the focus order,
// and no list item, row, article or section boundary lies between them (an image link beside
// a text link, read and tabbed through twice); true otherwise.
/* global axe */
(function (node) {
  const { dom } = axe.commons;
  const CONTENT = ['img', 'svg', 'input', 'button', 'select', 'textarea', 'iframe', 'object', 'embed',
    'video', 'audio', 'canvas', 'picture', 'math'];
  const target = (link) => {
    const href = (link.getAttribute('href') || '').trim();
    if (!href || href === '#' || /^javascript:/i.test(href)) return null;
    return link.href;
  };
  const counts = (link) => dom.isVisibleToScreenReaders(link) && dom.isFocusable(link) && link.tabIndex >= 0;
  // Links in different items of a list, rows, articles or sections are announced apart.
  const ITEM = 'li, dt, dd, tr, article, section, [role="listitem"], [role="row"], [role="article"]';
  const apart = (first, second) => {
    let common = first.parentElement;
    while (common && !common.contains(second)) common = common.parentElement;
    for (const start of [first, second]) {
      for (let el = start.parentElement; el && el !== common; el = el.parentElement) {
        if (el.matches(ITEM)) return true;
      }
    }
    return false;
  };
  const here = target(node);
  if (!here) return true;
  const root = node.getRootNode();
  const walker = node.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  walker.currentNode = node;
  for (let steps = 0, n = walker.previousNode(); n && steps < 200; steps += 1, n = walker.previousNode()) {
    if (n.contains(node)) continue; // an ancestor
    const element = n.nodeType === Node.ELEMENT_NODE ? n : n.parentElement;
    const link = element ? element.closest('a[href]') : null;
    if (link && !link.contains(node)) {
      if (target(link) !== here || apart(link, node) || !counts(node) || !counts(link)) return true;
      this.relatedNodes([link]);
      return false;
    }
    // Text or content between them, even hidden, keeps them apart (the cheap, cautious way).
    if (n.nodeType === Node.TEXT_NODE ? n.data.trim() !== '' : CONTENT.includes(n.localName)) return true;
  }
  return true;
})
