/* global a11yProbe */
// Function expression (mode, id, other, waitMs): one step of hovering a trigger kept by js/hover_candidates.js. 'arm': watch the DOM, return a point on the trigger {x, y, focusable} or null; 'read': after up to waitMs, the content that became shown {cid, box, text, inside, ...describe} or null; 'point': a point on content `id` off trigger `other`; 'still': whether content `id` shows after waitMs; 'covers': what content `id` hides ({other, trigger, label}); 'focus'/'blur': keyboard focus on trigger `id`; 'disarm': stop watching, scroll back.
// "Shown" is new since 'arm': an element hidden then and rendered now, an element added since,
// or a popup (absolutely or fixed positioned, or a tooltip/dialog/menu role) restyled since;
// with text, an image or a control in it, and not the trigger or one of its ancestors.
async function (mode, id, other, waitMs) {
  const hover = globalThis.a11yHover || (globalThis.a11yHover = {elements: new Map()});
  const get = (key) => {
    const el = hover.elements.get(key);
    return el && el.isConnected ? el : null;
  };
  const visible = (el) => (el.checkVisibility
    ? el.checkVisibility({opacityProperty: true, visibilityProperty: true})
    : a11yProbe.isRendered(el));
  const rectOf = (el) => el.getBoundingClientRect();
  const sized = (el) => { const r = rectOf(el); return r.width >= 4 && r.height >= 4; };
  const shows = (el) => el.isConnected && visible(el) && sized(el);
  const wait = (ms) => new Promise((done) => setTimeout(done, ms));
  const within = (el, x, y) => { const hit = document.elementFromPoint(x, y); return hit && (hit === el || el.contains(hit)); };
  // Points of a box, centre first, inset from its edges.
  const points = (r, cols, rows) => {
    const found = [[r.left + r.width / 2, r.top + r.height / 2]];
    for (let i = 0; i < cols; i += 1) {
      for (let j = 0; j < rows; j += 1) {
        found.push([r.left + Math.min(r.width - 2, Math.max(2, (r.width * (i + 0.5)) / cols)),
          r.top + Math.min(r.height - 2, Math.max(2, (r.height * (j + 0.5)) / rows))]);
      }
    }
    return found.filter(([x, y]) => x >= 0 && y >= 0 && x < innerWidth && y < innerHeight);
  };

  if (mode === 'arm') {
    const el = get(id);
    if (!el || !shows(el)) return null;
    if (!hover.scroll) hover.scroll = [scrollX, scrollY];
    let r = rectOf(el);
    if (r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth) {
      el.scrollIntoView({block: 'center', inline: 'nearest'});
      r = rectOf(el);
    }
    const point = points(r, 3, 2).find(([x, y]) => within(el, x, y));
    if (!point) return null;
    hover.before = new Map();
    const note = (node) => { if (hover.before.size < 600) hover.before.set(node, shows(node)); };
    const scope = el.parentElement || el;
    note(el);
    for (const node of scope.querySelectorAll('*')) note(node);
    const root = el.getRootNode();
    for (const ref of (el.getAttribute('aria-describedby') || '').split(/\s+/).filter(Boolean)) {
      const target = root.getElementById ? root.getElementById(ref) : null;
      if (target) note(target);
    }
    if (hover.observer) hover.observer.disconnect();
    hover.added = new Set();
    hover.changed = new Set();
    hover.observer = new MutationObserver((records) => {
      for (const record of records) {
        if (record.type === 'childList') {
          for (const node of record.addedNodes) if (node.nodeType === 1 && hover.added.size < 200) hover.added.add(node);
        } else if (record.target.nodeType === 1 && hover.changed.size < 200) {
          hover.changed.add(record.target);
        }
      }
    });
    hover.observer.observe(document, {subtree: true, childList: true, attributes: true, attributeFilter: ['style', 'class', 'hidden', 'aria-hidden', 'open']});
    const focusable = el.tabIndex >= 0 && !el.disabled && !el.closest('[inert]');
    return {x: point[0], y: point[1], focusable};
  }

  if (mode === 'read') {
    const trigger = get(id);
    if (!trigger) return null;
    const start = performance.now();
    await a11yProbe.settle(Math.min(waitMs, 300));
    const meaningful = (el) => (el.innerText || '').trim() || el.querySelector('img, svg, video, canvas, input, select, textarea, button, a[href]')
      || /^(img|svg|video|canvas)$/.test(el.localName);
    const popup = (el) => {
      const cs = getComputedStyle(el);
      return /absolute|fixed/.test(cs.position) || /tooltip|dialog|menu|listbox|tree|grid/.test(el.getAttribute('role') || '') || el.matches('[popover]');
    };
    const find = () => {
      const found = new Set();
      for (const [el, was] of hover.before) if (!was && shows(el)) found.add(el);
      for (const el of hover.added) {
        if (shows(el)) found.add(el);
      }
      for (const el of hover.changed) {
        if (!hover.before.has(el) && popup(el) && shows(el)) found.add(el);
      }
      const kept = [...found].filter((el) => !el.contains(trigger) && meaningful(el));
      const top = kept.filter((el) => !kept.some((o) => o !== el && o.contains(el)));
      if (!top.length) return null;
      const area = (el) => { const r = rectOf(el); return r.width * r.height; };
      return top.sort((a, b) => area(b) - area(a))[0];
    };
    let content = find();
    while (!content && performance.now() - start < waitMs) {
      await wait(40);
      content = find();
    }
    if (!content) return null;
    const cid = a11yProbe.idOf(content);
    hover.elements.set(cid, content);
    const r = rectOf(content);
    const t = rectOf(trigger);
    return {
      cid, label: a11yProbe.label(content), text: (content.innerText || content.getAttribute('aria-label') || '').trim().replace(/\s+/g, ' ').slice(0, 80),
      box: {x: r.x, y: r.y, width: r.width, height: r.height},
      inside: r.left >= t.left - 1 && r.right <= t.right + 1 && r.top >= t.top - 1 && r.bottom <= t.bottom + 1,
      descendant: trigger.contains(content), ms: Math.round(performance.now() - start), ...a11yProbe.describe(content),
    };
  }

  if (mode === 'point') {
    const content = get(id);
    const trigger = get(other);
    if (!content || !trigger || !shows(content)) return null;
    const t = rectOf(trigger);
    const off = ([x, y]) => x < t.left || x > t.right || y < t.top || y > t.bottom;
    const point = points(rectOf(content), 4, 3).find((p) => off(p) && within(content, p[0], p[1]));
    return point ? {x: point[0], y: point[1]} : null;
  }

  if (mode === 'still') {
    if (waitMs) await wait(waitMs);
    await a11yProbe.settle(100, 20);
    const content = get(id);
    return Boolean(content && shows(content));
  }

  if (mode === 'covers') {
    const content = get(id);
    const trigger = get(other);
    if (!content || !shows(content)) return null;
    const range = document.createRange();
    const bearing = (el, x, y, textOnly) => {
      if (!textOnly && /^(img|video|canvas|svg|input|select|textarea|button|iframe|object|embed)$/.test(el.localName)) return true;
      for (const child of el.childNodes) {
        if (child.nodeType !== 3 || !child.data.trim()) continue;
        range.selectNodeContents(child);
        for (const r of range.getClientRects()) if (x >= r.left && x <= r.right && y >= r.top && y <= r.bottom) return true;
      }
      return false;
    };
    const result = {other: 0, trigger: 0, label: ''};
    for (const [x, y] of points(rectOf(content), 4, 3)) {
      const stack = document.elementsFromPoint(x, y);
      const top = stack.findIndex((el) => content === el || content.contains(el));
      if (top < 0) continue;
      for (const el of stack.slice(top + 1)) {
        // An ancestor's own text can lie under the content too; its box is no content.
        if (content.contains(el) || (el.contains(content) ? !bearing(el, x, y, true) : !bearing(el, x, y))) continue;
        if (trigger && trigger.contains(el)) result.trigger += 1;
        else {
          result.other += 1;
          if (!result.label) result.label = a11yProbe.label(el);
        }
        break;
      }
    }
    return result;
  }

  if (mode === 'focus') {
    const el = get(id);
    if (!el) return false;
    el.focus({preventScroll: true});
    return a11yProbe.deepActive() === el;
  }

  if (mode === 'blur') {
    const active = a11yProbe.deepActive();
    if (active && active.blur) active.blur();
    return true;
  }

  // disarm
  if (hover.observer) hover.observer.disconnect();
  hover.observer = null;
  hover.before = new Map();
  hover.added = new Set();
  hover.changed = new Set();
  if (hover.scroll) window.scrollTo(hover.scroll[0], hover.scroll[1]);
  hover.scroll = null;
  return true;
}
