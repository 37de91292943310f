// Function expression (node), the matches of a11y-visual-heading: returns true for a block of
// short text that could be a heading to the eye: a p, div or block-level span, b, strong or
// font with 2 to 80 characters (12 words at most, with a letter; not a sentence, a lead-in
// ending with a colon, or a "label: value" line), holding only inline, non-interactive content; not a heading, label, button,
// link, legend, caption, table cell, summary, term or figure caption, nor inside one or inside a
// navigation, menu, tab list or form control; not the name of something else
// (aria-labelledby); not clickable.
// A block with more than 80 characters other than white space is too long whatever its
// white space collapses to: that is known after its first text, not after all of it (an outer
// div holds the whole page).
(function (node) {
  const walker = node.ownerDocument.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  for (let seen = 0; walker.nextNode();) {
    seen += walker.currentNode.data.replace(/\s+/g, '').length;
    if (seen > 80) return false;
  }
  const text = node.textContent.replace(/\s+/g, ' ').trim();
  if (text.length < 2 || text.length > 80 || text.split(' ').length > 12 || !/\p{L}/u.test(text)) return false;
  // A sentence, a lead-in ("Example:") or a "label: value" line is not a heading.
  if (/[.,;:]$/.test(text) || /^[^:]{1,40}:\s*\S/.test(text)) return false;
  const role = node.getAttribute('role');
  if (role && !['generic', 'paragraph', 'none', 'presentation'].includes(role.trim())) return false;
  const style = window.getComputedStyle(node);
  if (!['block', 'flex', 'grid', 'flow-root'].includes(style.display) || style.cursor === 'pointer') return false;
  const OUTSIDE = 'h1, h2, h3, h4, h5, h6, label, button, a, legend, caption, th, td, summary, dt, figcaption, '
    + 'nav, select, option, li, [role="heading"], [role="navigation"], [role="menu"], [role="menubar"], '
    + '[role="tablist"], [role="tab"], [role="button"], [role="link"], [role="option"], [role="listbox"], '
    + '[role="treeitem"], [role="gridcell"], [role="cell"], [role="columnheader"], [role="rowheader"], '
    + '[role="tooltip"], [role="alert"], [role="status"], [contenteditable="true"]';
  if (node.closest(OUTSIDE)) return false;
  for (const el of node.querySelectorAll('*')) {
    if (el.matches('a, button, input, select, textarea, img, svg, video, audio, iframe, object, embed, [role], [tabindex]')) {
      return false;
    }
    if (!window.getComputedStyle(el).display.startsWith('inline') && window.getComputedStyle(el).display !== 'none') {
      return false;
    }
  }
  const id = node.getAttribute('id');
  const root = node.getRootNode();
  if (id && root.querySelector && root.querySelector(`[aria-labelledby~="${CSS.escape(id)}"]`)) return false;
  return true;
})
