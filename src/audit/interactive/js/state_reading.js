/* global a11yProbe */
// Function expression (action, ids, capMs): for a11y-state-exposed, on controls js/state_controls.js registered: 'point' scrolls ids[0] into the middle of the window and returns its centre {x, y}, or null when it is gone, hidden or something else lies over its centre; 'blur' takes focus off ids[0]'s group (or ids[0]); 'read' waits until the page settles (capMs at most, finite animations run to their end) and returns, for each id, {state (its state attribute), expanded (its aria-expanded), look, panel} or null when it is gone.
// look is what the control looks like, as a flat object: its class, some computed styles, its
// ::before and ::after, its first 20 descendants' class, display, visibility, opacity,
// transform, fill, background image and box (relative to its own), and its text. Properties
// an endless animation moves (a spinner) are left out: they change with no click at all.
// panel: whether the element its aria-controls names is shown (null without one).
async function (action, ids, capMs) {
  const known = globalThis[Symbol.for('a11y.stateExposed')];
  const OWN = ['backgroundColor', 'backgroundImage', 'color', 'borderColor', 'boxShadow', 'opacity', 'transform', 'fontWeight'];
  const PSEUDO = ['content', 'backgroundColor', 'backgroundImage', 'transform', 'opacity'];
  const PART = ['display', 'visibility', 'opacity', 'transform', 'fill', 'backgroundImage'];
  const resolve = (id) => {
    const entry = known && known.get(id);
    if (!entry) return null;
    if (!entry.el.isConnected) {
      // Drawn again by the page's script (a framework's re-render): the element in its place, if
      // it is of the same role and text.
      const again = a11yProbe.byTarget(entry.target);
      const role = (again && again.getAttribute('role') || '').trim().split(/\s+/)[0].toLowerCase() || (again && again.localName);
      if (!again || role !== entry.role || !again.hasAttribute(entry.attr) || again.textContent.trim() !== entry.text) return null;
      entry.el = again;
    }
    return entry.el;
  };
  const looks = (el) => {
    const moving = new Set();
    for (const animation of el.getAnimations({subtree: true})) {
      const timing = animation.effect && animation.effect.getComputedTiming();
      if (animation.playState !== 'running' || !timing || Number.isFinite(timing.endTime)) continue;
      const {target, pseudoElement} = animation.effect;
      if (!pseudoElement) moving.add(target);
      else if (target === el) moving.add(pseudoElement);
    }
    const still = (node) => {
      for (let n = node; n; n = n === el ? null : n.parentElement) if (moving.has(n)) return false;
      return true;
    };
    const sig = {class: el.getAttribute('class') || ''};
    const own = getComputedStyle(el);
    if (still(el)) for (const name of OWN) sig[name] = own[name];
    for (const pseudo of ['::before', '::after']) {
      if (moving.has(pseudo) || !still(el)) continue;
      const style = getComputedStyle(el, pseudo);
      for (const name of PSEUDO) sig[`${pseudo} ${name}`] = style[name];
    }
    const box = el.getBoundingClientRect();
    [...el.querySelectorAll('*')].slice(0, 20).forEach((child, index) => {
      const name = `${child.localName} ${index + 1}`;
      sig[`${name} class`] = child.getAttribute('class') || '';
      if (!still(child)) return;
      const style = getComputedStyle(child);
      for (const part of PART) sig[`${name} ${part}`] = style[part];
      const r = child.getBoundingClientRect();
      sig[`${name} box`] = [r.x - box.x, r.y - box.y, r.width, r.height].map(Math.round).join(' ');
    });
    sig.text = (el.innerText || '').replace(/\s+/g, ' ').trim().slice(0, 200);
    return sig;
  };
  const panel = (el) => {
    const ref = (el.getAttribute('aria-controls') || '').trim().split(/\s+/)[0];
    const target = ref && document.getElementById(ref);
    if (!target) return null;
    const box = target.getBoundingClientRect();
    return a11yProbe.shown(target) && box.width > 0 && box.height > 0;
  };

  if (action === 'point') {
    const el = resolve(ids[0]);
    if (!el || !a11yProbe.shown(el)) return null;
    const point = a11yProbe.pressPoint(el);
    return point && point.hit ? {x: point.x, y: point.y} : null;
  }
  if (action === 'blur') {
    const el = resolve(ids[0]);
    const entry = known && known.get(ids[0]);
    const around = (entry && entry.group && entry.group.isConnected) ? entry.group : el;
    const active = a11yProbe.deepActive();
    if (active && around && around.contains(active) && active.blur) active.blur();
    return null;
  }
  await a11yProbe.settle(capMs, 10);
  return ids.map((id) => {
    const el = resolve(id);
    if (!el || !a11yProbe.isRendered(el)) return null;
    return {state: el.getAttribute(known.get(id).attr), expanded: el.getAttribute('aria-expanded'), look: looks(el), panel: panel(el)};
  });
}
