/* global a11yProbe */
// Function expression (found, limits): the elements that may show content on pointer hover, at most limits.triggers, as [{id, source, rule, ...describe}]: those whose aria-describedby names hidden content, triggers of style rules that reveal an element on :hover (display, visibility, opacity), and elements with a mouseover/mouseenter/pointerover/pointerenter listener of their own (found, from Probe.listening). The `title` attribute's tooltip is the browser's and not sought.
// Elements are kept in the interaction world (a11yHover.elements, by a11yProbe.idOf) for
// js/hover_state.js.
function (found, limits) {
  void document.documentElement.offsetHeight;  // the layout first: the time limit is for the reading
  const hover = globalThis.a11yHover || (globalThis.a11yHover = {elements: new Map()});
  const started = performance.now();
  // Past limits.ms the search stops, once it found a little (a slow machine still finds some).
  const overTime = (found) => found >= 20 && performance.now() - started > limits.ms;
  const visible = (el) => (el.checkVisibility
    ? el.checkVisibility({opacityProperty: true, visibilityProperty: true})
    : a11yProbe.isRendered(el));
  const sized = (el) => {
    const r = el.getBoundingClientRect();
    return r.width >= 4 && r.height >= 4;
  };
  const usable = (el) => el instanceof Element && el !== document.body && el !== document.documentElement
    && !el.closest('[aria-hidden="true"], [inert]') && visible(el) && sized(el);
  const hidden = (el) => !visible(el) || !sized(el);
  const candidates = [];
  const taken = new Set();
  const perRule = new Map();
  const add = (el, source, rule) => {
    if (taken.has(el) || candidates.length >= limits.triggers) return;
    if (rule && (perRule.get(rule) || 0) >= limits.perRule) return;
    taken.add(el);
    if (rule) perRule.set(rule, (perRule.get(rule) || 0) + 1);
    const id = a11yProbe.idOf(el);
    hover.elements.set(id, el);
    candidates.push({id, source, rule: rule || '', label: a11yProbe.label(el), ...a11yProbe.describe(el)});
  };

  // 1. aria-describedby naming content that is hidden now: the tooltip pattern.
  for (const el of document.querySelectorAll('[aria-describedby]')) {
    if (candidates.length >= limits.triggers) break;
    const root = el.getRootNode();
    const described = (el.getAttribute('aria-describedby') || '').split(/\s+/).filter(Boolean)
      .map((id) => root.getElementById ? root.getElementById(id) : document.getElementById(id)).filter(Boolean);
    if (described.length && described.every(hidden) && usable(el)) add(el, 'describedby', 'aria-describedby');
  }

  // 2. Style rules that reveal another element on :hover.
  const REVEALS = (style) => (style.display && style.display !== 'none')
    || style.visibility === 'visible' || (style.opacity !== '' && parseFloat(style.opacity) > 0);
  const rules = [];
  const collect = (list, depth) => {
    for (const rule of list) {
      if (rules.length > limits.rules || depth > 4 || overTime(rules.length)) return;
      if (rule.selectorText && rule.selectorText.includes(':hover') && rule.style && REVEALS(rule.style)) rules.push(rule.selectorText);
      let inner = null;
      try { inner = rule.cssRules; } catch { inner = null; }
      if (inner && inner.length) collect(inner, depth + 1);
    }
  };
  const sheets = [...document.styleSheets, ...(document.adoptedStyleSheets || [])];
  for (const sheet of sheets) {
    let list = null;
    try { list = sheet.cssRules; } catch { list = null; }  // a cross-origin sheet cannot be read
    if (list) collect(list, 0);
    if (overTime(rules.length)) break;
  }
  // "nav li:hover > ul" -> trigger "nav li", revealed "nav li > ul".
  const split = (selector) => {
    const at = selector.indexOf(':hover');
    let depth = 0;
    for (let i = 0; i < at; i += 1) {
      if (selector[i] === '(' || selector[i] === '[') depth += 1;
      else if (selector[i] === ')' || selector[i] === ']') depth -= 1;
    }
    if (depth !== 0) return null;  // inside :not(), :is(), :has(): not a simple trigger
    const rest = selector.slice(at + ':hover'.length);
    const end = rest.search(/[\s>+~]/);
    if (end < 0) return null;  // the hovered element itself changes: nothing else is revealed
    const trigger = (selector.slice(0, at) + rest.slice(0, end)).replace(/:hover/g, '').trim() || '*';
    const revealed = (selector.slice(0, at) + rest).replace(/:hover/g, '').trim();
    if (!revealed || /::?(before|after|marker|placeholder)/.test(revealed)) return null;
    return {trigger, revealed, sibling: /^[+~]/.test(rest.slice(end).trim())};
  };
  // The revealed element is the trigger's descendant, or for "a:hover + b" its sibling's.
  const related = (trigger, el, sibling) => (sibling
    ? trigger.parentElement && trigger.parentElement.contains(el) && !trigger.contains(el) && !el.contains(trigger)
    : trigger !== el && trigger.contains(el));
  for (const text of rules) {
    if (candidates.length >= limits.triggers || overTime(rules.length)) break;
    for (const selector of text.split(/,(?![^(]*\))/)) {
      if (!selector.includes(':hover')) continue;
      const parts = split(selector.trim());
      if (!parts) continue;
      let triggers;
      let revealed;
      try {
        triggers = [...document.querySelectorAll(parts.trigger)].slice(0, 40);
        revealed = [...document.querySelectorAll(parts.revealed)].slice(0, 80).filter(hidden);
      } catch { continue; }
      if (!revealed.length) continue;
      for (const trigger of triggers) {
        if (usable(trigger) && revealed.some((el) => related(trigger, el, parts.sibling))) add(trigger, 'css', selector.trim().slice(0, 120));
      }
    }
  }

  // 3. Listeners of the element's own for the pointer entering it.
  for (const {node} of found) {
    if (candidates.length >= limits.triggers) break;
    if (!(node instanceof Element) || !usable(node)) continue;
    const r = node.getBoundingClientRect();
    // A listener on a whole section (a carousel pausing, analytics) is no tooltip trigger.
    if (r.width * r.height <= 0.25 * innerWidth * innerHeight) add(node, 'script', '');
  }
  return candidates;
}
