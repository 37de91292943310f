// Function expression (node), the matches of a11y-icon-contrast: returns true for an enabled
// button or link that shows no text (no letter or digit outside an icon font's private use
// area) but shows an icon: an svg of at least 8 px, or an icon-font glyph in its text or in a
// ::before or ::after. The icon is then all that shows what the control does.
(function (node) {
  if (node.disabled || node.getAttribute('aria-disabled') === 'true') return false;
  const READABLE = /[\p{L}\p{N}]/u;
  const GLYPH = /[\uE000-\uF8FF]|[\u{F0000}-\u{FFFFD}]/u;
  const text = (node.innerText || '').replace(/[\uE000-\uF8FF]|[\u{F0000}-\u{FFFFD}]/gu, '');
  if (READABLE.test(text)) return false;
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
