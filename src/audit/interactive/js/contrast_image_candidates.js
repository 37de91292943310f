/* global a11yProbe */
// Function expression (limits, hide): the text drawn over a background image or gradient, which axe-core cannot measure: per element (at most limits.elements, in document order) {target, html, label, colour, large, shadowed, box: {x, y, width, height} in document CSS px, sample}. With hide true, hides the text of the elements limits.targets names (colour transparent, no shadow) so that the pixels behind it can be shot; with hide false, shows it again; returns the count.
// An element's own text counts (its text nodes with a letter or digit, visible, not
// aria-hidden); what is behind it is found up its ancestors: an image or gradient before any
// opaque background colour. The box is the union of the text's line boxes, cut to the
// document. Text with a shadow or a stroke (a halo drawn to set it apart) is marked shadowed.
function (limits, hide) {
  const ATTRIBUTE = 'data-a11y-probe-hide-text';
  const SHEET = 'data-a11y-probe-hide-text-sheet';
  if (hide !== undefined && hide !== null) {
    let count = 0;
    if (hide) {
      if (!document.querySelector(`style[${SHEET}]`)) {
        const sheet = document.createElement('style');
        sheet.setAttribute(SHEET, '');
        sheet.textContent = `[${ATTRIBUTE}], [${ATTRIBUTE}] * { color: transparent !important;`
          + ' -webkit-text-fill-color: transparent !important; text-shadow: none !important;'
          + ' -webkit-text-stroke: 0 !important; caret-color: transparent !important; }';
        (document.head || document.documentElement).appendChild(sheet);
      }
      for (const target of limits.targets) {
        const el = a11yProbe.byTarget(target);
        if (el) { el.setAttribute(ATTRIBUTE, ''); count += 1; }
      }
    } else {
      for (const el of document.querySelectorAll(`[${ATTRIBUTE}]`)) { el.removeAttribute(ATTRIBUTE); count += 1; }
      for (const sheet of document.querySelectorAll(`style[${SHEET}]`)) sheet.remove();
    }
    void document.body.offsetHeight;
    return count;
  }
  const READABLE = /[\p{L}\p{N}]/u;
  const underImage = (el) => {
    for (let up = el; up && up.nodeType === 1; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (style.backgroundImage && style.backgroundImage !== 'none') return true;
      const alpha = (/rgba\([^)]*,\s*([\d.]+)\)/.exec(style.backgroundColor) || [])[1];
      const opaque = style.backgroundColor !== 'transparent' && (alpha === undefined || parseFloat(alpha) >= 0.99);
      if (opaque) return false;
    }
    return false;
  };
  const found = [];
  const seen = new Set();
  const range = document.createRange();
  const walker = document.createTreeWalker(document.body || document.documentElement, NodeFilter.SHOW_TEXT);
  let read = 0;
  for (let text = walker.nextNode(); text && found.length < limits.elements && read < limits.texts; text = walker.nextNode()) {
    const el = text.parentElement;
    if (!el || seen.has(el) || !READABLE.test(text.data)) continue;
    read += 1;
    if (/^(script|style|noscript|template|title|option|textarea)$/.test(el.localName)) continue;
    if (!a11yProbe.shown(el) || !underImage(el)) continue;
    seen.add(el);
    const rects = [];
    for (const node of el.childNodes) {
      if (node.nodeType !== 3 || !READABLE.test(node.data)) continue;
      range.selectNodeContents(node);
      rects.push(...[...range.getClientRects()].filter((r) => r.width >= 1 && r.height >= 1));
    }
    if (!rects.length) continue;
    const left = Math.max(0, Math.min(...rects.map((r) => r.left)) + scrollX);
    const top = Math.max(0, Math.min(...rects.map((r) => r.top)) + scrollY);
    const right = Math.min(document.documentElement.scrollWidth, Math.max(...rects.map((r) => r.right)) + scrollX);
    const bottom = Math.min(document.documentElement.scrollHeight, Math.max(...rects.map((r) => r.bottom)) + scrollY);
    if (right - left < 2 || bottom - top < 2) continue;
    const style = getComputedStyle(el);
    const size = parseFloat(style.fontSize) || 16;
    const bold = (parseInt(style.fontWeight, 10) || 400) >= 700;
    const stroke = parseFloat(style.webkitTextStrokeWidth) || 0;
    found.push({
      label: a11yProbe.label(el), ...a11yProbe.describe(el), colour: style.color,
      large: size >= 24 || (bold && size >= 18.66), shadowed: style.textShadow !== 'none' || stroke > 0,
      box: {x: left, y: top, width: right - left, height: bottom - top},
      sample: text.data.trim().replace(/\s+/g, ' ').slice(0, 60),
    });
  }
  return found;
}
