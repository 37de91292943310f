/* global a11yProbe */
// Function expression (action, value): what submitting a form changed, for the error-identification check. 'before' (value [formId, fieldIds], from js/error_forms.js) reads how the fields look and the page's visible text, and starts hearing invalid events; 'after' (value: whether the browser validates the form itself) lets the page settle, reads again, stops hearing and returns {fields: [{id, changes: [{what, from, to, red}], invalid, focused, texts}], items: [{text, own, shown, announced}], bubble}.
// A field's look: its border, outline, box shadow, background colour and image, its first
// label's colour and its placeholder's; a change is red when the new colour is red and the old
// one was not. Items are what appeared: text nodes, images with or without a text alternative
// and generated content in the form that were not rendered before or read otherwise, when
// their text is now shown more often than before (a re-rendered form draws the same text
// anew), and a field's new placeholder; own when the page edited that text twice or more
// before the submit (a clock, a ticker: it may have changed by itself). An item is shown
// unless it is transparent, smaller than 3 px (visually hidden text) or off the page;
// announced when it is in an alert, status, log or live region or in what has focus after;
// a field's texts are the items in its aria-describedby or aria-errormessage targets, its
// labels, or its group (its nearest ancestors holding no other field). The browser's own
// message (bubble) was shown when an invalid event the page did not cancel fired while the
// browser validated the form on submit, or reportValidity() moved focus to such a field.
async function (action, value) {
  const key = Symbol.for('a11y.errorReading');
  const known = (globalThis[Symbol.for('a11y.errorForms')] || {known: new Map()}).known;
  const SIDES = ['Top', 'Right', 'Bottom', 'Left'];
  const SKIP = /^(script|style|noscript|template|title|head|option|datalist)$/;
  const IMAGES = 'img, svg, [role="img"], input[type="image"]';
  const FIELDS = 'input:not([type="hidden"]):not([type="submit"]):not([type="button"]):not([type="reset"]):not([type="image"]), select, textarea';
  const LIVE = '[role="alert"], [role="status"], [role="log"], [aria-live]:not([aria-live="off"]), output';
  const LIMIT = 20000;
  const clean = (text) => (text || '').replace(/\s+/g, ' ').trim();
  const element = (id) => {
    const ref = known.get(id);
    const el = ref ? ref.deref() : null;
    return el && el.isConnected ? el : null;
  };
  const colours = (text) => (String(text).match(/rgba?\([^)]*\)/g) || []);
  const red = (colour) => {
    const [r, g, b, a = 1] = (colour.match(/[\d.]+/g) || []).map(Number);
    const max = Math.max(r, g, b);
    const chroma = max - Math.min(r, g, b);
    if (!(a >= 0.3) || max !== r || chroma < 25) return false;
    const hue = (60 * (g - b) / chroma + 360) % 360;
    return hue <= 25 || hue >= 330;
  };
  const look = (el) => {
    const cs = getComputedStyle(el);
    const sides = SIDES.map((side) => (parseFloat(cs[`border${side}Width`]) > 0 && !/^(none|hidden)$/.test(cs[`border${side}Style`])
      ? `${cs[`border${side}Color`]} ${cs[`border${side}Width`]}` : 'none'));
    const label = el.labels && el.labels[0];
    return {
      border: [...new Set(sides)].join(' / '),
      outline: cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) > 0 ? `${cs.outlineColor} ${cs.outlineWidth}` : 'none',
      'box shadow': cs.boxShadow,
      background: cs.backgroundColor,
      'background image': cs.backgroundImage,
      "label's colour": label ? getComputedStyle(label).color : '',
      "placeholder's colour": el.placeholder ? getComputedStyle(el, '::placeholder').color : '',
    };
  };
  const imageText = (el) => clean(el.getAttribute('alt') || el.getAttribute('aria-label') || el.getAttribute('title')
    || (el.localName === 'svg' && el.querySelector('title') ? el.querySelector('title').textContent : ''));
  // Every rendered text node, image and (in the form) generated content, with its text.
  const snapshot = (form) => {
    const items = new Map();
    const cache = new Map();
    const rendered = (el) => {
      if (!cache.has(el)) cache.set(el, a11yProbe.isRendered(el));
      return cache.get(el);
    };
    const walk = (root) => {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
        acceptNode: (n) => (n.nodeType === 1 && SKIP.test(n.localName) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
      });
      for (let n = walker.nextNode(); n && items.size < LIMIT; n = walker.nextNode()) {
        if (n.nodeType === 1) {
          if (n.shadowRoot) walk(n.shadowRoot);
          if (n.matches(IMAGES) && rendered(n)) items.set(n, imageText(n));
        } else if (n.parentElement && clean(n.data) && rendered(n.parentElement)) {
          items.set(n, clean(n.data));
        }
      }
    };
    walk(document.body || document.documentElement);
    for (const el of [form, ...form.querySelectorAll('*')].slice(0, 600)) {
      const generated = ['::before', '::after'].map((which) => getComputedStyle(el, which).content)
        .filter((c) => c && c !== 'none' && c !== 'normal' && /\p{L}/u.test(c)).join(' ');
      if (generated && rendered(el)) items.set(el, clean(generated.replace(/^"|"$/g, '')));
    }
    return items;
  };
  const shownOn = (el) => {
    if (!el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})) return false;
    const r = el.getBoundingClientRect();
    return r.width >= 3 && r.height >= 3 && r.right + scrollX > 0 && r.bottom + scrollY > 0;
  };
  // The field's group: its largest ancestor (three at most) that holds no other field.
  const group = (field) => {
    let found = null;
    for (let up = field.parentElement, depth = 0; up && depth < 3 && up !== document.body; up = up.parentElement, depth += 1) {
      if ([...up.querySelectorAll(FIELDS)].some((el) => el !== field)) break;
      found = up;
    }
    return found;
  };
  const referenced = (el, attribute) => (el.getAttribute(attribute) || '').split(/\s+/)
    .map((id) => (id ? document.getElementById(id) : null)).filter(Boolean);
  const invalidNow = (el) => !/^(false|)$/.test((el.getAttribute('aria-invalid') || '').trim().toLowerCase());

  if (action === 'before') {
    const form = element(value[0]);
    const fields = value[1].map(element);
    if (!form || fields.some((el) => !el)) return null;
    const reading = {
      form, fields, looks: fields.map(look), invalid: fields.map(invalidNow), placeholders: fields.map((el) => el.placeholder),
      items: snapshot(form), at: performance.now(), heard: [],
    };
    reading.listener = (event) => reading.heard.push(event);
    document.addEventListener('invalid', reading.listener, true);
    globalThis[key] = reading;
    return fields.length;
  }
  const reading = globalThis[key];
  if (action !== 'after' || !reading) return null;
  globalThis[key] = null;
  await a11yProbe.settle(400);
  document.removeEventListener('invalid', reading.listener, true);
  const {form, fields} = reading;
  const active = a11yProbe.deepActive();
  const edits = new Map();
  for (const edit of a11yProbe.textEdits().edits) {
    if (edit.at < reading.at) edits.set(edit.el, (edits.get(edit.el) || 0) + 1);
  }
  const ticking = [...edits].filter(([, count]) => count >= 2).map(([el]) => el);
  const items = [];
  const now = snapshot(form);
  // A text shown as often as before is the same text drawn anew (a re-rendered form).
  const counts = (map) => {
    const counted = new Map();
    for (const [node, text] of map) counted.set(`${node.nodeType}:${text}`, (counted.get(`${node.nodeType}:${text}`) || 0) + 1);
    return counted;
  };
  const [was, is] = [counts(reading.items), counts(now)];
  for (const [node, text] of now) {
    const seen = `${node.nodeType}:${text}`;
    if (reading.items.get(node) === text || (is.get(seen) || 0) <= (was.get(seen) || 0)) continue;
    const el = node.nodeType === 1 ? node : node.parentElement;
    items.push({node: el, text, own: ticking.some((e) => e.contains(el))});
  }
  fields.forEach((field, i) => {
    if (field.isConnected && field.placeholder && field.placeholder !== reading.placeholders[i]) {
      items.push({node: field, text: clean(field.placeholder), own: false});
    }
  });
  const found = items.slice(0, 40).map((item) => ({
    ...item,
    shown: shownOn(item.node),
    announced: Boolean(item.node.closest(LIVE) || (active && !active.matches(FIELDS) && active.contains(item.node))),
  }));
  const heard = reading.heard.filter((event) => !event.defaultPrevented).map((event) => event.target);
  const bubble = heard.length > 0 && (value || heard.includes(active));
  return {
    fields: fields.map((field, i) => {
      const now = field.isConnected ? look(field) : reading.looks[i];
      const changes = Object.keys(now).filter((what) => now[what] !== reading.looks[i][what]).map((what) => ({
        what, from: reading.looks[i][what], to: now[what],
        red: colours(now[what]).some(red) && !colours(reading.looks[i][what]).some(red),
      }));
      const near = [...referenced(field, 'aria-describedby'), ...referenced(field, 'aria-errormessage'),
        ...(field.labels || []), ...referenced(field, 'aria-labelledby'), group(field), field].filter(Boolean);
      return {
        id: a11yProbe.idOf(field), changes, invalid: invalidNow(field) && !reading.invalid[i], focused: active === field,
        texts: found.map((item, at) => (near.some((n) => n.contains(item.node)) ? at : -1)).filter((at) => at >= 0),
      };
    }),
    items: found.map(({text, own, shown, announced}) => ({text: text.slice(0, 80), own, shown, announced})),
    bubble,
  };
}
