// Function expression (locator, state, timeout ms, options, referenced element): returns the element once it reaches the state, null for hidden/detached, or throws JSON {code, message}.
// Finds by CSS (`>>>` pierces open shadow roots and same-origin frames), a semantic locator or
// an element reference (kind ref: the element itself, passed in), and polls in the page, so a
// wait costs one CDP round trip instead of one per poll.
async (loc, want, timeoutMs, opts, referenced) => {
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const low = (s) => norm(s).toLowerCase();
  const deepAll = (root) => {
    const out = [];
    const walk = (node) => {
      for (const el of node.querySelectorAll('*')) {
        out.push(el);
        if (el.shadowRoot) walk(el.shadowRoot);
      }
    };
    walk(root);
    return out;
  };
  const INPUT_ROLES = {button: 'button', submit: 'button', reset: 'button', image: 'button',
    checkbox: 'checkbox', radio: 'radio', range: 'slider', number: 'spinbutton', search: 'searchbox',
    email: 'textbox', tel: 'textbox', text: 'textbox', url: 'textbox', password: 'textbox'};
  const implicitRole = (el) => {
    const tag = el.localName;
    if (tag === 'a' || tag === 'area') return el.hasAttribute('href') ? 'link' : null;
    if (/^h[1-6]$/.test(tag)) return 'heading';
    if (tag === 'input') return INPUT_ROLES[(el.getAttribute('type') || 'text').toLowerCase()] || 'textbox';
    if (tag === 'select') return (el.multiple || el.size > 1) ? 'listbox' : 'combobox';
    if (tag === 'img') return el.getAttribute('alt') === '' ? 'presentation' : 'img';
    return ({button: 'button', textarea: 'textbox', nav: 'navigation', main: 'main', header: 'banner',
      footer: 'contentinfo', aside: 'complementary', form: 'form', table: 'table', ul: 'list', ol: 'list',
      li: 'listitem', dialog: 'dialog', option: 'option', tr: 'row', td: 'cell', th: 'columnheader',
      progress: 'progressbar', summary: 'button', details: 'group', fieldset: 'group', article: 'article',
      hr: 'separator', section: 'region', label: null, p: 'paragraph', menu: 'list'})[tag] || null;
  };
  const roleOf = (el) => {
    const explicit = (el.getAttribute('role') || '').trim().split(/\s+/)[0];
    return explicit || implicitRole(el);
  };
  const labelText = (el) => {
    const ids = el.getAttribute('aria-labelledby');
    if (ids) {
      const doc = el.getRootNode();
      const text = ids.split(/\s+/).map((id) => doc.getElementById && doc.getElementById(id))
        .filter(Boolean).map((n) => n.textContent).join(' ');
      if (norm(text)) return norm(text);
    }
    if (el.getAttribute('aria-label')) return norm(el.getAttribute('aria-label'));
    if (el.labels && el.labels.length) return norm([...el.labels].map((l) => l.textContent).join(' '));
    return '';
  };
  const nameOf = (el) => labelText(el) || norm(el.getAttribute('alt')) || norm(el.getAttribute('title'))
    || (el.localName === 'input' ? norm(el.value || el.getAttribute('placeholder')) : '')
    || norm(el.innerText !== undefined ? el.innerText : el.textContent);
  const matches = (value, wanted) => low(value) === low(wanted) || low(value).includes(low(wanted));
  const byAttr = (name, value) => {
    const all = deepAll(document).filter((el) => el.hasAttribute(name));
    const exact = all.filter((el) => low(el.getAttribute(name)) === low(value));
    return exact.length ? exact : all.filter((el) => matches(el.getAttribute(name), value));
  };
  const css = (selector) => {
    const hops = selector.split(/\s*>>>\s*/);
    let roots = [document];
    let found = [];
    for (let i = 0; i < hops.length; i++) {
      found = [];
      for (const root of roots) found.push(...root.querySelectorAll(hops[i]));
      if (i < hops.length - 1) {
        roots = found.map((el) => el.shadowRoot || (el.contentDocument) || null).filter(Boolean);
      }
    }
    return found;
  };
  const SKIP = new Set(['script', 'style', 'head', 'noscript', 'template', 'title']);
  const find = () => {
    switch (loc.kind) {
      case 'ref': {
        // A document its frame navigated away from keeps its nodes connected, but has no window.
        if (referenced.isConnected && referenced.ownerDocument.defaultView) return [referenced];
        if (want === 'detached' || want === 'hidden') return [];
        throw new Error(JSON.stringify({code: 'stale_reference', message: 'the element has left the page'}));
      }
      case 'css': return css(loc.value);
      case 'xpath': {
        const snap = document.evaluate(loc.value, document, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
        const out = [];
        for (let i = 0; i < snap.snapshotLength; i++) {
          const n = snap.snapshotItem(i);
          out.push(n.nodeType === 1 ? n : n.parentElement);
        }
        return out.filter(Boolean);
      }
      case 'testid': return deepAll(document).filter((el) => el.getAttribute('data-testid') === loc.value);
      case 'placeholder': return byAttr('placeholder', loc.value);
      case 'alt': return byAttr('alt', loc.value);
      case 'title': return byAttr('title', loc.value);
      case 'label': {
        const all = deepAll(document).filter((el) => el.matches('input,select,textarea,button,[role],[contenteditable]'));
        const exact = all.filter((el) => low(labelText(el)) === low(loc.value));
        return exact.length ? exact : all.filter((el) => labelText(el) && matches(labelText(el), loc.value));
      }
      case 'role': {
        const all = deepAll(document).filter((el) => roleOf(el) === loc.value.toLowerCase());
        if (loc.name == null) return all;
        const exact = all.filter((el) => low(nameOf(el)) === low(loc.name));
        return exact.length ? exact : all.filter((el) => matches(nameOf(el), loc.name));
      }
      case 'text': {
        const all = deepAll(document.body || document).filter((el) => !SKIP.has(el.localName)
          && matches(el.innerText !== undefined ? el.innerText : el.textContent, loc.value));
        const leaves = all.filter((el) => !all.some((o) => o !== el && el.contains(o)));
        const exact = leaves.filter((el) => low(el.innerText) === low(loc.value));
        return exact.length ? exact : leaves;
      }
    }
    throw new Error('unknown locator kind ' + loc.kind);
  };
  const visible = (el) => {
    if (!el.isConnected) return false;
    if (el.checkVisibility && !el.checkVisibility({visibilityProperty: true})) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const describe = (el) => {
    if (!el) return 'nothing';
    let d = el.localName;
    if (el.id) d += '#' + el.id;
    if (el.classList && el.classList.length) d += '.' + [...el.classList].slice(0, 2).join('.');
    return d;
  };
  const enabled = (el) => !(el.disabled === true || el.matches(':disabled') || el.getAttribute('aria-disabled') === 'true');
  const editable = (el) => enabled(el) && !el.readOnly && (el.matches('input,textarea,select') || el.isContentEditable);
  const hitTarget = (el) => {
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    let hit = el.ownerDocument.elementFromPoint(x, y);
    while (hit && hit.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    if (!hit) return {ok: false, by: 'nothing (outside the viewport)'};
    let n = hit;
    while (n) {
      if (n === el) return {ok: true};
      n = n.parentNode || n.host;
    }
    return {ok: false, by: describe(hit)};
  };
  const deadline = performance.now() + timeoutMs;
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.width, r.height].join(','); };
  // A hidden tab runs no animation frames: a short timer stands in there. A visible one may be
  // slow to paint under load, and a timer firing first would call a mover stable: wait longer.
  const nextFrame = () => new Promise((resolve) => {
    requestAnimationFrame(() => resolve());
    setTimeout(resolve, document.visibilityState === 'hidden' ? 50 : 1000);
  });
  let reason = '';
  while (true) {
    let list = [];
    try { list = find(); } catch (e) {
      if (loc.kind === 'ref') throw e;
      throw new Error(JSON.stringify({code: 'invalid_arguments', message: 'bad locator: ' + e.message}));
    }
    const el = opts.visibleFirst ? (list.find(visible) || list[0]) : list[0];
    if (want === 'detached') { if (!el) return null; reason = 'still attached'; }
    else if (want === 'hidden') { if (!el || !visible(el)) return null; reason = 'still visible'; }
    else if (!el) { reason = 'matched 0 elements'; }
    else if (want === 'attached') { return el; }
    else if (!visible(el)) { reason = 'matched ' + list.length + ' element(s) but ' + describe(el) + ' is not visible'; }
    else if (want === 'visible') { return el; }
    else {
      if (opts.scroll) el.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
      // Stable means the same box one animation frame apart, at every poll (CSS animations and
      // script-driven movers alike; boxes from polls further apart could alias a periodic mover).
      // Keyboard actions (opts.stable false) reach the element by focus, wherever it is.
      let moving = false;
      if (opts.stable !== false) {
        const before = box(el);
        await nextFrame();
        moving = box(el) !== before;
      }
      if (opts.enabled && !enabled(el)) reason = describe(el) + ' is disabled';
      else if (opts.editable && !editable(el)) reason = describe(el) + ' is not editable';
      else if (moving) { reason = describe(el) + ' is still moving'; }
      else if (opts.hitTarget) {
        const hit = hitTarget(el);
        if (hit.ok) return el;
        reason = describe(el) + ' is covered by ' + hit.by;
      } else return el;
    }
    if (performance.now() >= deadline) {
      const code = reason === 'matched 0 elements' ? 'element_not_found' : 'timeout';
      throw new Error(JSON.stringify({code, message: reason}));
    }
    await new Promise((resolve) => setTimeout(resolve, want === 'actionable' ? 16 : 50));
  }
}
