/* global a11yProbe */
// Function expression (limits): what moves, blinks or plays on its own now, and the controls that may stop it ({now, marquees, animations, videos, images, controls, stirring}, now the page's clock; stirring what in the document could change its text later by itself); each item {key, label, ...describe} plus its kind's facts. Items and controls are kept in the interaction world (a11yMoving) by key for js/moving_watch.js.
// Moving means a running CSS or Web animation whose keyframes move, scale, turn, fade or
// hide something and that runs for ever or past 5 s; an autoplaying video that loops or is
// longer than 5 s, without the browser's controls; an image whose file may be animated (GIF,
// PNG, WebP: Python reads its frames). Loading indicators are marked (a spinner is essential
// while something loads).
function (limits) {
  const now = performance.now();
  const moving = globalThis.a11yMoving || (globalThis.a11yMoving = {items: new Map()});
  const visible = (el) => el.isConnected && (el.checkVisibility
    ? el.checkVisibility({opacityProperty: true, visibilityProperty: true})
    : a11yProbe.isRendered(el));
  const docWidth = Math.max(document.documentElement.scrollWidth, innerWidth);
  const onPage = (r) => r.right > 0 && r.bottom > 0 && r.left < docWidth + scrollX;
  const keep = (el, extra) => {
    const key = `${a11yProbe.idOf(el)}:${extra.kind}:${moving.items.size}`;
    moving.items.set(key, {el, ...extra});
    return {key, label: a11yProbe.label(el), ...a11yProbe.describe(el)};
  };
  const LOADING = /\b(spin|spinner|loader|loading|preload|progress|skeleton|shimmer|placeholder|busy)\b|spin|load/i;
  const loading = (el) => {
    for (let node = el, depth = 0; node && depth < 4; node = node.parentElement, depth += 1) {
      if (node.getAttribute('role') === 'progressbar' || node.getAttribute('aria-busy') === 'true') return true;
      const name = `${typeof node.className === 'string' ? node.className : ''} ${node.id || ''}`;
      if (LOADING.test(name)) return true;
    }
    return false;
  };

  const marquees = [];
  for (const el of document.querySelectorAll('marquee')) {
    if (marquees.length >= limits.items) break;
    if (!visible(el) || !(el.textContent || '').trim() && !el.querySelector('img')) continue;
    const loops = parseInt(el.getAttribute('loop') || '-1', 10);
    marquees.push({...keep(el, {kind: 'marquee'}), loops, text: (el.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 60)});
  }

  // Properties whose change is movement, blinking or flashing (not a colour easing).
  const MOVES = /^(transform|translate|rotate|scale|left|right|top|bottom|inset|margin|offset|background-position|opacity|visibility|clip-path|width|height|display)/;
  const animations = [];
  const seenTargets = new Set();
  for (const animation of document.getAnimations()) {
    if (animations.length >= limits.items) break;
    const effect = animation.effect;
    const el = effect && effect.target;
    if (!el || animation.playState !== 'running' || seenTargets.has(el)) continue;
    const timing = effect.getComputedTiming();
    if (!(timing.endTime === Infinity || timing.endTime > limits.longMs)) continue;
    if ((timing.endTime - (timing.localTime || 0)) < 1000) continue;
    let props = [];
    try {
      props = [...new Set(effect.getKeyframes().flatMap((frame) => Object.keys(frame)))]
        .filter((p) => !/^(offset|easing|composite|computedOffset)$/.test(p))
        .map((p) => p.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`));
    } catch { props = []; }
    const moves = props.filter((p) => MOVES.test(p));
    if (!moves.length || !visible(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.width * r.height < limits.minArea || !onPage(r)) continue;
    seenTargets.add(el);
    animations.push({
      ...keep(el, {kind: 'animation', animation}), props: moves.slice(0, 4),
      name: animation.animationName || animation.id || '', infinite: timing.endTime === Infinity,
      seconds: Number.isFinite(timing.endTime) ? Math.round(timing.endTime / 100) / 10 : null,
      pseudo: effect.pseudoElement || '', loading: loading(el),
    });
  }

  const videos = [];
  for (const el of document.querySelectorAll('video')) {
    if (videos.length >= limits.items) break;
    if (el.paused || el.ended || el.controls || !visible(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.width * r.height < limits.minArea) continue;
    const duration = Number.isFinite(el.duration) ? el.duration : null;
    if (!el.loop && duration !== null && duration <= limits.longMs / 1000) continue;
    videos.push({...keep(el, {kind: 'video'}), loop: el.loop, seconds: duration === null ? null : Math.round(duration)});
  }

  const images = [];
  for (const el of document.images) {
    if (images.length >= limits.images) break;
    const src = a11yProbe.animatedSource(el);
    if (!src || !visible(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.width * r.height < limits.minImageArea || !onPage(r)) continue;
    images.push({...keep(el, {kind: 'image'}), url: src, alt: el.getAttribute('alt') || '', loading: loading(el)});
  }

  // Controls: what their words say they do. 'pause' ones are tried; 'other' ones may manage
  // the movement some other way (a settings panel, a frequency), which a person judges.
  const PAUSE = /\b(pause|stop|hide|freeze|halt|anhalten|pausieren|stoppen|arr[êe]ter|pausa|pausar|detener|parar|pauze|stoppa)\b/i;
  const OTHER = /\b(play|resume|animation|animations|motion|movement|ticker|autoplay|auto-play|frequency|speed|interval|updates?|changes|control|controls|settings|rotation|slideshow|carousel)\b/i;
  const nameOf = (el) => {
    const labelled = (el.getAttribute('aria-labelledby') || '').split(/\s+/).filter(Boolean)
      .map((id) => document.getElementById(id)).filter(Boolean).map((n) => n.textContent).join(' ');
    const labels = el.labels ? [...el.labels].map((l) => l.textContent).join(' ') : '';
    return [labelled, el.getAttribute('aria-label'), el.innerText, el.value, labels, el.getAttribute('title'),
      el.getAttribute('alt')].filter((t) => t && t.trim()).join(' ').replace(/\s+/g, ' ').trim().slice(0, 80);
  };
  const controls = [];
  const CONTROL = 'button, [role="button"], [role="switch"], input[type="button"], input[type="checkbox"], input[type="image"], summary, a[href^="#"], a:not([href])[onclick]';
  for (const el of document.querySelectorAll(CONTROL)) {
    if (controls.length >= limits.controls) break;
    if (el.disabled || !visible(el)) continue;
    if (el.closest('a[href]:not([href^="#"])') || (el.form && (el.type === 'submit' || (el.localName === 'button' && !el.getAttribute('type'))))) continue;
    const name = nameOf(el);
    const kind = PAUSE.test(name) ? 'pause' : OTHER.test(name) ? 'other' : '';
    if (kind) controls.push({...keep(el, {kind: 'control'}), name, kind});
  }
  // An item with icon-only controls close by (a carousel's buttons) may have its pause among
  // them, unnamed: a person judges.
  const nearUnnamed = (item) => {
    let scope = moving.items.get(item.key).el;
    for (let depth = 0; depth < 3 && scope.parentElement && scope.parentElement !== document.body; depth += 1) scope = scope.parentElement;
    for (const el of scope.querySelectorAll(CONTROL)) if (visible(el) && !nameOf(el)) return true;
    return false;
  };
  for (const list of [marquees, animations, videos, images]) for (const item of list) item.nearUnnamed = nearUnnamed(item);
  // What in the document could change text later with no timer of the page's own: running
  // animations (their events), frames (their messages), SMIL, playing media, and edits the
  // page already made since the interaction world was made.
  const stirring = [];
  if (document.getAnimations().some((a) => a.playState === 'running')) stirring.push('animation');
  if (document.querySelector('iframe, frame, object, embed')) stirring.push('subdocument');
  if (document.querySelector('animate, animateMotion, animateTransform, set')) stirring.push('smil');
  if ([...document.querySelectorAll('video, audio')].some((m) => !m.paused)) stirring.push('media');
  if (a11yProbe.textEdits().edits.length) stirring.push('edit');
  return {now, marquees, animations, videos, images, controls, stirring};
}
