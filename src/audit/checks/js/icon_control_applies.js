// Function expression (node), the matches of a11y-icon-contrast: returns true for an enabled
// button or link that shows no text (no letter or digit outside an icon font's private use
// area; text hidden for screen readers only does not show) but shows an icon: an svg of at
// least 8 px, or an icon-font glyph in its text or in a ::before or ::after. The icon is then
// all that shows what the control does.
(function (node) {
  if (node.disabled || node.getAttribute('aria-disabled') === 'true') return false;
  const READABLE = /[\p{L}\p{N}]/u;
  const GLYPH = /[\uE000-\uF8FF]|[\u{F0000}-\u{FFFFD}]/u;
  // Text for screen readers only (the visually hidden patterns: a box of a pixel or two that
  // clips what it holds, clipped to nothing, or moved off the page's left or top edge) does
  // not show.
  const unseen = (el) => {
    for (let up = el; up && up !== node.parentElement; up = up.parentElement) {
      const style = getComputedStyle(up);
      const box = up.getBoundingClientRect();
      if (/^rect\(0(px)?,? 0(px)?,? 0(px)?,? 0(px)?\)$/.test(style.clip) || /^inset\(50%/.test(style.clipPath)) return true;
      if ((box.width <= 2 || box.height <= 2) && style.overflow !== 'visible') return true;
      if (box.right + scrollX <= 0 || box.bottom + scrollY <= 0) return true;
    }
    return false;
  };
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    const shown = text.data.replace(/[\uE000-\uF8FF]|[\u{F0000}-\u{FFFFD}]/gu, '');
    if (READABLE.test(shown) && text.parentElement && !unseen(text.parentElement)
      && text.parentElement.checkVisibility({visibilityProperty: true})) return false;
  }
  if (node.querySelector('img, picture, canvas, video, input')) return false;
  for (const svg of node.querySelectorAll('svg')) {
    const box = svg.getBoundingClientRect();
    if (box.width >= 8 && box.height >= 8) return true;
  }
  if (GLYPH.test(node.innerText || '')) return true;
  for (const el of [node, ...node.querySelectorAll('*')].slice(0, 20)) {
    for (const pseudo of ['::before', '::after']) {
      const content = getComputedStyle(el, pseudo).content;
      if (content && content !== 'none' && content !== 'normal' && GLYPH.test(content)) return true;
    }
  }
  return false;
})
