/* global a11yProbe */
// Function expression (mode, options): device motion as a page sees it. 'arm': start noting what changes; 'motion': tilt and turn the device (synthetic deviceorientation and devicemotion events on the window) and return what changed ({content: [...], restyled}); 'changes': what changed since 'arm' ({content, restyled}); 'controls': the page's controls now, as [{key, name, kind: 'switch'|'button', x, y, ...describe}]; 'point': control options.key scrolled into view, its centre {x, y} or null.
// A content change is text or child elements edited, an attribute other than style and class
// changed, or a form field's value or checked state changed; restyling alone (style, class:
// a parallax effect) is counted apart. Changes are named by element, so a control that
// changes the same elements as the motion did is told apart from one that changes others.
async function (mode, options) {
  const motion = globalThis.a11yMotion || (globalThis.a11yMotion = {controls: new Map()});
  const visible = (el) => el.isConnected && (el.checkVisibility
    ? el.checkVisibility({opacityProperty: true, visibilityProperty: true})
    : a11yProbe.isRendered(el));
  const FIELDS = 'input, select, textarea';
  const stateOf = (el) => `${el.value}|${el.checked}`;

  if (mode === 'arm') {
    if (motion.observer) motion.observer.disconnect();
    motion.content = new Set();
    motion.restyled = new Set();
    motion.fields = new Map([...document.querySelectorAll(FIELDS)].slice(0, 300).map((el) => [el, stateOf(el)]));
    motion.observer = new MutationObserver((records) => {
      for (const record of records) {
        const el = record.target.nodeType === 1 ? record.target : record.target.parentElement;
        if (!el) continue;
        if (record.type === 'attributes' && /^(style|class)$/.test(record.attributeName)) motion.restyled.add(el);
        else motion.content.add(el);
      }
    });
    motion.observer.observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
    return true;
  }

  const changes = () => {
    for (const record of motion.observer ? motion.observer.takeRecords() : []) {
      const el = record.target.nodeType === 1 ? record.target : record.target.parentElement;
      if (!el) continue;
      if (record.type === 'attributes' && /^(style|class)$/.test(record.attributeName)) motion.restyled.add(el);
      else motion.content.add(el);
    }
    const changed = new Set(motion.content);
    for (const [el, before] of motion.fields) if (el.isConnected && stateOf(el) !== before) changed.add(el);
    const deepest = [...changed].filter((el) => el !== document.documentElement && el !== document.body);
    return {
      content: deepest.slice(0, 30).map((el) => ({key: a11yProbe.idOf(el), label: a11yProbe.label(el)})),
      restyled: motion.restyled.size,
    };
  };

  if (mode === 'motion') {
    const fire = (event) => { try { window.dispatchEvent(event); } catch { /* a handler threw: the page's */ } };
    const orientation = (beta, gamma) => {
      for (const type of ['deviceorientation', 'deviceorientationabsolute']) {
        fire(new DeviceOrientationEvent(type, {alpha: 10, beta, gamma, absolute: type.endsWith('absolute')}));
      }
    };
    const shake = (x, rate) => fire(new DeviceMotionEvent('devicemotion', {
      acceleration: {x, y: x / 2, z: 0}, accelerationIncludingGravity: {x, y: x / 2, z: 9.8},
      rotationRate: {alpha: rate, beta: rate, gamma: rate}, interval: 16,
    }));
    orientation(45, 45);
    shake(25, 30);
    await a11yProbe.settle(150, 30);
    orientation(-45, -45);
    shake(-25, -30);
    await a11yProbe.settle(150, 30);
    orientation(0, 0);
    shake(0, 0);
    await a11yProbe.settle(150, 30);
    return changes();
  }

  if (mode === 'changes') {
    await a11yProbe.settle(250, 40);
    return changes();
  }

  if (mode === 'point') {
    const el = motion.controls.get(options.key);
    if (!el || !visible(el)) return null;
    el.scrollIntoView({block: 'center', inline: 'nearest'});
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2;
    const y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    const labelled = el.labels && [...el.labels].some((l) => l === hit || l.contains(hit));
    return hit && (hit === el || el.contains(hit) || labelled) ? {x, y} : null;
  }

  // 'controls': what a person could operate instead: buttons and switches acting in place.
  const found = [];
  const SELECTOR = 'button, [role="button"], input[type="button"], input[type="checkbox"], [role="switch"], [role="checkbox"], summary, a[href^="#"]';
  for (const el of document.querySelectorAll(SELECTOR)) {
    if (found.length >= options.limit) break;
    if (el.disabled || !visible(el) || el.closest('[inert], [aria-hidden="true"]')) continue;
    if (el.form && (el.type === 'submit' || (el.localName === 'button' && !el.getAttribute('type')))) continue;
    const name = [el.getAttribute('aria-label'), el.innerText, /^(button|submit|reset)$/.test(el.type) ? el.value : '', el.labels ? [...el.labels].map((l) => l.textContent).join(' ') : '',
      el.getAttribute('title')].filter((t) => t && String(t).trim()).join(' ').replace(/\s+/g, ' ').trim().slice(0, 60);
    if (/\b(delete|remove|buy|pay|order|sign ?out|log ?out|unsubscribe|send|submit)\b/i.test(name)) continue;
    const key = a11yProbe.idOf(el);
    motion.controls.set(key, el);
    const kind = /checkbox|switch/.test(`${el.type || ''} ${el.getAttribute('role') || ''}`) ? 'switch' : 'button';
    found.push({key, name, kind, label: a11yProbe.label(el), ...a11yProbe.describe(el)});
  }
  return found;
}
