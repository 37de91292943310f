/* global a11yProbe */
// Function expression (mode, options): watching what moves, after js/moving_scan.js. 'text': waits for text that the page edits on its own, repeatedly, and returns it ({found: [{key, label, edits, text, ...describe}], hints, waited}); 'point': scrolls control options.key into view and returns its centre {x, y} or null; 'after': after control options.control was used, whether item options.key is 'hidden', 'moving', 'halted' (an animation or video no longer plays) or 'stopped' (text unedited for options.waitMs) ({state, watched, flipped: the control's name changed}).
// Self-updating text (ACT efbfc7): an element whose own text the page edited at least twice,
// at moments options.apartMs apart, once at least since options.quietFrom (when nothing acted
// on the page any more), that is visible with text, and whose text is not all of the
// document's (an ancestor shows other text too). The page's edits since the interaction world was made come
// from a11yProbe.textEdits(), so the time other checks took counts as watching.
async function (mode, options) {
  const moving = globalThis.a11yMoving || (globalThis.a11yMoving = {items: new Map()});
  const wait = (ms) => new Promise((done) => setTimeout(done, ms));
  const visible = (el) => el.isConnected && (el.checkVisibility
    ? el.checkVisibility({opacityProperty: true, visibilityProperty: true})
    : a11yProbe.isRendered(el));
  const shownText = (el) => (el.innerText || '').trim();

  if (mode === 'point') {
    const item = moving.items.get(options.key);
    if (!item || !visible(item.el)) return null;
    const el = item.el;
    el.scrollIntoView({block: 'center', inline: 'nearest'});
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2;
    const y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    const labelled = el.labels && [...el.labels].some((l) => l === hit || l.contains(hit));
    return hit && (hit === el || el.contains(hit) || labelled) ? {x, y} : null;
  }

  if (mode === 'after') {
    // Returns early: as soon as the item is hidden or moves again; an animation, a video at
    // once (their state says whether they play).
    const since = performance.now();
    const item = moving.items.get(options.key);
    const control = moving.items.get(options.control);
    const nameOf = (el) => [el.getAttribute('aria-label'), el.innerText, el.value, el.getAttribute('aria-pressed')]
      .filter(Boolean).join(' ');
    const before = control ? nameOf(control.el) : '';
    await a11yProbe.settle(100, 20);
    const result = (state) => ({
      state, watched: Math.round(performance.now() - since),
      flipped: Boolean(control && control.el.isConnected && nameOf(control.el) !== before),
    });
    for (;;) {
      if (!item || !visible(item.el) || (item.kind === 'text' && !shownText(item.el))) return result('hidden');
      if (item.kind === 'animation') return result(item.animation.playState === 'running' ? 'moving' : 'halted');
      if (item.kind === 'video') return result(!item.el.paused && !item.el.ended ? 'moving' : 'halted');
      if (item.kind !== 'text') return result('unknown');
      if (a11yProbe.textEdits().edits.some((e) => e.el === item.el && e.at >= since)) return result('moving');
      if (performance.now() - since >= options.waitMs) return result('stopped');
      await wait(40);
    }
  }

  // 'text'
  const quietFrom = options.quietFrom || performance.now();
  const started = performance.now();
  const notAlone = (el) => {
    const own = shownText(el);
    for (let node = el.parentElement; node; node = node.parentElement) {
      const text = shownText(node);
      if (text && text !== own) return true;
    }
    return false;
  };
  const judge = () => {
    const {startedAt, edits} = a11yProbe.textEdits();
    const byElement = new Map();
    for (const edit of edits) {
      if (!byElement.has(edit.el)) byElement.set(edit.el, []);
      byElement.get(edit.el).push(edit.at);
    }
    const found = [];
    let hints = 0;
    let latest = 0;
    for (const [el, times] of byElement) {
      if (!visible(el) || !shownText(el)) continue;
      // Only the deepest: an element whose descendant's text is edited too is not judged.
      if ([...byElement.keys()].some((other) => other !== el && el.contains(other))) continue;
      hints += 1;
      latest = Math.max(latest, times[times.length - 1]);
      const moments = times.filter((t, i) => i === 0 || t - times[i - 1] >= options.apartMs);
      if (moments.length >= 2 && times.some((t) => t >= quietFrom) && notAlone(el)) {
        const key = `${a11yProbe.idOf(el)}:text`;
        moving.items.set(key, {el, kind: 'text'});
        found.push({
          key, label: a11yProbe.label(el), edits: moments.length, text: shownText(el).replace(/\s+/g, ' ').slice(0, 60),
          seconds: Math.round((moments[moments.length - 1] - moments[0]) / 100) / 10,
          interval: Math.round((moments[moments.length - 1] - moments[0]) / (moments.length - 1)),
          ...a11yProbe.describe(el),
        });
      }
    }
    return {found, hints, latest, startedAt};
  };
  for (;;) {
    const {found, hints, latest, startedAt} = judge();
    const now = performance.now();
    let deadline = startedAt + options.spanMs;
    if (hints) deadline = Math.max(deadline, latest + options.extendMs);
    deadline = Math.min(deadline, started + options.capMs);
    if (found.length || now >= deadline) return {found: found.slice(0, 5), hints, waited: Math.round(now - started)};
    await wait(Math.min(50, deadline - now));
  }
}
