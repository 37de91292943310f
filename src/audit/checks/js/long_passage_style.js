// Function expression (node), the evaluate of a11y-long-passage-style, run on a block of running
// text of 200 characters or more: returns false when nearly all of it (90% of its characters) is
// set in italics, or in capital letters (by text-transform or as written), and it is a passage
// (3 sentences, or 400 characters) seen on screen; true otherwise.
/* global axe */
(function (node) {
  const blocks = axe._cache.get('a11y-running-text', () => new Map()).get(node.getRootNode());
  const entry = blocks ? blocks.get(node) : null;
  const texts = entry ? entry.texts : [];
  let chars = 0;
  let italic = 0;
  let cased = 0;
  let upper = 0;
  for (const t of texts) {
    const style = getComputedStyle(t.parentElement);
    const visible = t.data.replace(/\s+/g, '').length;
    chars += visible;
    if (style.fontStyle === 'italic' || style.fontStyle.startsWith('oblique')) italic += visible;
    for (const ch of t.data) {
      if (ch.toLowerCase() === ch.toUpperCase()) continue;
      cased += 1;
      if (style.textTransform === 'uppercase' || ch === ch.toUpperCase()) upper += 1;
    }
  }
  const text = texts.map((t) => t.data).join('').replace(/\s+/g, ' ').trim();
  const sentences = (text.match(/[.!?。！？]+(?=\s|$)/g) || []).length;
  if (chars < 150 || (sentences < 3 && text.length < 400)) return true;
  if (!axe.commons.dom.isVisibleOnScreen(node)) return true;
  if (italic >= 0.9 * chars) {
    this.data({ style: 'italics', length: text.length });
    return false;
  }
  if (cased >= 150 && upper >= 0.9 * cased) {
    this.data({ style: 'capital letters', length: text.length });
    return false;
  }
  return true;
})
