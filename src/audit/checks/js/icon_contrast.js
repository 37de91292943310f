// Function expression (node, colours: js/colour_behind.js's helpers), the axe check of a11y-icon-contrast, run on a button or link that
// shows only an icon (js/icon_control_applies.js): returns false when every colour the icon is
// painted in (an svg's fills and strokes, through <use> too, or an icon font's glyph colour), at
// its opacity, stays below 3:1 against the colour behind it; undefined when a paint or the
// colour behind cannot be read (a gradient, a pattern, an image, a sprite in another file);
// true when one of its colours reaches 3:1.
/* global axe */
(function (node, colours) {
  const { color } = axe.commons;
  const { parse, parentOf, behind } = colours;
  const GLYPH = /[\uE000-\uF8FF]|[\u{F0000}-\u{FFFFD}]/u;
  const SHAPES = 'path, circle, rect, ellipse, line, polyline, polygon, text, use';
  let unsure = '';
  // How much of el shows through its own and its ancestors' opacity, up to the control.
  const shown = (el) => {
    let alpha = 1;
    for (let up = el; up && up !== parentOf(node); up = parentOf(up)) alpha *= parseFloat(getComputedStyle(up).opacity);
    return alpha;
  };
  const paints = [];
  const paint = (value, alpha, where) => {
    if (!value || value === 'none' || value === 'transparent') return;
    let paintColor = null;
    if (!/url\(|gradient|context-/.test(value)) {
      try {
        paintColor = parse(value);
      } catch {
        paintColor = null;
      }
    }
    if (!paintColor || [paintColor.red, paintColor.green, paintColor.blue, paintColor.alpha].some((v) => !Number.isFinite(v))) {
      unsure = unsure || 'the icon is painted with a gradient, a pattern or a colour that could not be read';
      return;
    }
    paintColor.alpha *= alpha;
    if (paintColor.alpha > 0) paints.push({paint: paintColor, where});
  };
  const shapes = (root) => {
    for (const shape of [...root.querySelectorAll(SHAPES)].slice(0, 60)) {
      const style = getComputedStyle(shape);
      if (style.display === 'none' || style.visibility === 'hidden') continue;
      const alpha = shown(shape);
      if (shape.localName === 'use') {
        const href = shape.getAttribute('href') || shape.getAttribute('xlink:href') || '';
        const target = href.startsWith('#') ? document.getElementById(href.slice(1)) : null;
        if (!target) {
          unsure = unsure || 'the icon is drawn from a sprite this check cannot read';
          continue;
        }
        // The symbol's shapes are drawn with their own paint attributes, else the <use>'s.
        const parts = [...(target.matches(SHAPES) ? [target] : []), ...target.querySelectorAll(SHAPES)].slice(0, 60);
        for (const part of parts) {
          for (const [name, inherited] of [['fill', style.fill], ['stroke', style.stroke]]) {
            const own = part.getAttribute(name);
            if (name === 'stroke' && (parseFloat(part.getAttribute('stroke-width') || style.strokeWidth) || 0) < 1) continue;
            paint(!own || own === 'currentColor' || own === 'inherit' ? inherited : own, alpha, shape);
          }
        }
        continue;
      }
      paint(style.fill, alpha * (parseFloat(style.fillOpacity) || 0), shape);
      if ((parseFloat(style.strokeWidth) || 0) >= 1) paint(style.stroke, alpha * (parseFloat(style.strokeOpacity) || 0), shape);
    }
  };
  for (const svg of node.querySelectorAll('svg')) {
    const box = svg.getBoundingClientRect();
    if (box.width < 8 || box.height < 8) continue;
    if (svg.querySelector('image, foreignObject')) unsure = unsure || 'the icon holds an image';
    shapes(svg);
  }
  // Icon-font glyphs: in the control's text, or put there by ::before and ::after.
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    if (GLYPH.test(text.data) && text.parentElement) paint(getComputedStyle(text.parentElement).color, shown(text.parentElement), text.parentElement);
  }
  for (const el of [node, ...node.querySelectorAll('*')].slice(0, 20)) {
    for (const pseudo of ['::before', '::after']) {
      const style = getComputedStyle(el, pseudo);
      if (style.content && GLYPH.test(style.content)) paint(style.color, shown(el) * (parseFloat(style.opacity) || 0), el);
    }
  }
  const judged = paints.map(({paint: p, where}) => {
    const bg = behind(where);
    if (!bg) return null;
    const flat = color.flattenColors(p, bg);
    return {flat, bg, ratio: color.getContrast(flat, bg)};
  });
  if (judged.some((j) => j && j.ratio >= 3)) return true;
  if (judged.includes(null)) unsure = unsure || 'the colour behind the icon could not be read (an image or a gradient)';
  if (unsure || !judged.length) {
    this.data({ why: unsure || 'no colour of the icon could be read' });
    return undefined;
  }
  const best = judged.reduce((a, b) => (b.ratio > a.ratio ? b : a));
  this.data({
    ratio: (Math.floor(best.ratio * 100) / 100).toFixed(2), fg: best.flat.toHexString(), bg: best.bg.toHexString(),
  });
  return false;
})
