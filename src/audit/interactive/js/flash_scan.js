/* global a11yProbe */
// Function expression (limits): what may flash now, large enough to matter ({animations, images}). An animation is a running CSS or Web animation of a visible element of limits.area CSS px² or more whose keyframes change its brightness (background colour, opacity, visibility, a brightness or invert filter): {label, ...describe, area, name, iterationMs, iterations (null: for ever), alternate, activeMs (null: for ever), levels: [{offset, luminance}], known}; known is false (and each level is how much of the element shows) when the element's own look is not its background colour (no opaque background, or a background image behind it), so that its brightness cannot be read from its styles. An image is a visible img of limits.area CSS px² or more that may be animated (GIF, PNG, WebP): {label, ...describe, url, width, height}; Python reads its frames.
function (limits) {
  const visible = (el) => el.isConnected && (el.checkVisibility
    ? el.checkVisibility({visibilityProperty: true})
    : a11yProbe.isRendered(el));
  const inView = (r) => r.right > 0 && r.bottom > 0 && r.left < innerWidth && r.top < Math.max(innerHeight, document.documentElement.scrollHeight);
  // sRGB channels and alpha of a computed colour ("rgb(…)", "rgba(…)", "color(srgb …)").
  let probe = null;  // made at the first colour read: most pages have nothing to read
  const rgba = (value) => {
    if (!value || value === 'transparent') return [0, 0, 0, 0];
    probe = probe || document.createElement('canvas').getContext('2d', {willReadFrequently: true});
    probe.clearRect(0, 0, 1, 1);
    probe.fillStyle = '#000';
    probe.fillStyle = value;
    probe.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = probe.getImageData(0, 0, 1, 1).data;
    return [r, g, b, a / 255];
  };
  const linear = (c) => { const s = c / 255; return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; };
  const luminance = ([r, g, b]) => 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
  // What shows through the element: the nearest ancestor's opaque background colour (the
  // canvas's white at the top); unknown under a background image.
  const backdrop = (el) => {
    for (let node = el.parentElement; node; node = node.parentElement) {
      const cs = getComputedStyle(node);
      if (cs.backgroundImage && cs.backgroundImage !== 'none') return null;
      const colour = rgba(cs.backgroundColor);
      if (colour[3] >= 0.99) return colour;
    }
    return [255, 255, 255, 1];
  };
  const BRIGHTNESS = /brightness\(([\d.]+)(%?)\)/;
  const INVERT = /invert\(([\d.]+)(%?)\)/;
  const amount = (match) => (match ? parseFloat(match[1]) / (match[2] ? 100 : 1) : null);

  const animations = [];
  const seen = new Set();
  for (const animation of document.getAnimations()) {
    if (animations.length >= limits.items) break;
    const effect = animation.effect;
    const el = effect && effect.target;
    if (!el || animation.playState !== 'running' || seen.has(el) || !visible(el)) continue;
    let frames;
    try { frames = effect.getKeyframes(); } catch { continue; }
    const props = new Set(frames.flatMap((frame) => Object.keys(frame)));
    if (!['backgroundColor', 'opacity', 'visibility', 'filter', 'background'].some((p) => props.has(p))) continue;
    const r = el.getBoundingClientRect();
    const area = r.width * r.height;
    if (area < limits.area || !inView(r)) continue;
    seen.add(el);
    const cs = getComputedStyle(el);
    const under = backdrop(el);
    const ownBackground = rgba(cs.backgroundColor);
    const image = cs.backgroundImage && cs.backgroundImage !== 'none';
    let known = under !== null && !image;
    const levels = frames.map((frame) => {
      const background = frame.backgroundColor !== undefined ? rgba(frame.backgroundColor) : ownBackground;
      let opacity = frame.opacity !== undefined ? parseFloat(frame.opacity) : parseFloat(cs.opacity);
      if (frame.visibility === 'hidden') opacity = 0;
      if (!Number.isFinite(opacity)) opacity = 1;
      // Opacity or visibility on an element without a background of its own shows or hides
      // its content, whose brightness the styles do not tell.
      if ((frame.opacity !== undefined || frame.visibility !== undefined) && background[3] < 0.99) known = false;
      const base = under || [255, 255, 255, 1];
      const cover = background[3] * opacity;
      let level = luminance([0, 1, 2].map((i) => background[i] * cover + base[i] * (1 - cover)));
      const filter = typeof frame.filter === 'string' ? frame.filter : cs.filter;
      const bright = amount(BRIGHTNESS.exec(filter || ''));
      const invert = amount(INVERT.exec(filter || ''));
      if (bright !== null) level = Math.min(1, level * bright);
      if (invert !== null) level = level * (1 - invert) + (1 - level) * invert;
      return {offset: frame.computedOffset, luminance: Math.round(level * 1000) / 1000, shown: opacity};
    });
    // For want of its content's brightness, how much of the element shows stands in for it.
    if (!known) for (const level of levels) level.luminance = level.shown;
    const timing = effect.getComputedTiming();
    const iterationMs = Number(timing.duration) || 0;
    if (iterationMs <= 0) continue;
    animations.push({
      label: a11yProbe.label(el), ...a11yProbe.describe(el), area: Math.round(area),
      width: Math.round(r.width), height: Math.round(r.height),
      name: animation.animationName || animation.id || '',
      iterationMs, iterations: Number.isFinite(timing.iterations) ? timing.iterations : null,
      alternate: /alternate/.test(timing.direction || ''),
      activeMs: Number.isFinite(timing.activeDuration) ? timing.activeDuration - (timing.localTime || 0) : null,
      levels, known,
    });
  }

  const images = [];
  for (const el of document.images) {
    if (images.length >= limits.items) break;
    const url = el.currentSrc || el.src || '';
    if (!url || !el.complete || !visible(el)) continue;
    if (!/\.(gif|png|apng|webp)(\?|#|$)|^data:image\/(gif|png|apng|webp)/i.test(url) && !/gif|webp/i.test(url)) continue;
    const r = el.getBoundingClientRect();
    if (r.width * r.height < limits.area || !inView(r)) continue;
    images.push({label: a11yProbe.label(el), ...a11yProbe.describe(el), url, width: Math.round(r.width), height: Math.round(r.height)});
  }
  return {animations, images};
}
