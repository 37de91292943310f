/* global a11yProbe */
// Function expression (limits): what may flash now, large enough to matter ({animations, images}). An animation is a running CSS or Web animation of a visible element of limits.area CSS px² or more whose keyframes change its brightness (background colour, opacity, visibility, a brightness or invert filter): {label, ...describe, area, name, iterationMs, iterations (null: for ever), alternate, activeMs (null: for ever), levels: [luminance, in keyframe order], known}: each keyframe's brightness as a11yProbe.brightness reads it; known is false (and each level is how much of the element shows) when that brightness cannot be read from its styles (a background image, or content shown and hidden without a background of its own). An image is a visible img of limits.area CSS px² or more that may be animated (GIF, PNG, WebP): {label, ...describe, url, width, height}; Python reads its frames.
function (limits) {
  const visible = (el) => el.isConnected && (el.checkVisibility
    ? el.checkVisibility({visibilityProperty: true})
    : a11yProbe.isRendered(el));
  const inView = (r) => r.right > 0 && r.bottom > 0 && r.left < innerWidth && r.top < Math.max(innerHeight, document.documentElement.scrollHeight);
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
    const read = frames.map((frame) => a11yProbe.brightness(el, {
      backgroundColor: frame.backgroundColor, opacity: frame.opacity, visibility: frame.visibility, filter: frame.filter,
    }));
    const known = read.every((one) => one.known);
    // For want of its content's brightness, how much of the element shows stands in for it.
    const levels = read.map((one) => (known ? one.level : one.shown));
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
    const url = a11yProbe.animatedSource(el);
    if (!url || !visible(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.width * r.height < limits.area || !inView(r)) continue;
    images.push({label: a11yProbe.label(el), ...a11yProbe.describe(el), url, width: Math.round(r.width), height: Math.round(r.height)});
  }
  return {animations, images};
}
