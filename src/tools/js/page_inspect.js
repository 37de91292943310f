// Function expression ({include, offset, max}, root element or null): returns the listed elements (items offset.. up to max of them), an array whose data property holds the page map {url, title, items, total, frames}.
(opts, root) => {
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const clip = (s, n) => { s = norm(s); return s.length > n ? s.slice(0, n - 1) + '…' : s; };
  const KINDS = [
    ['button', 'button, input[type=button i], input[type=submit i], input[type=reset i], input[type=image i], summary, [role=button]'],
    ['link', 'a[href], area[href], [role=link]'],
    ['select', 'select, [role=combobox], [role=listbox]'],
    ['input', 'input:not([type=hidden i]), textarea, [contenteditable=""], [contenteditable=true i], [role=textbox], ' +
              '[role=searchbox], [role=checkbox], [role=radio], [role=switch], [role=slider], [role=spinbutton]'],
    ['heading', 'h1, h2, h3, h4, h5, h6, [role=heading]'],
    ['image', 'img, [role=img]'],
  ];
  const ANY = KINDS.map((k) => k[1]).join(', ');
  const kindOf = (el) => { for (const [kind, sel] of KINDS) if (el.matches(sel)) return kind; return null; };
  const ROLE_OF_TYPE = {checkbox: 'checkbox', radio: 'radio', range: 'slider', number: 'spinbutton', search: 'searchbox'};
  const roleOf = (el, kind) => {
    const explicit = norm(el.getAttribute('role')).split(' ')[0];
    if (explicit) return explicit;
    if (el.localName === 'input') return ROLE_OF_TYPE[(el.type || '').toLowerCase()] || (kind === 'button' ? 'button' : 'textbox');
    if (el.localName === 'textarea') return 'textbox';
    if (el.localName === 'select') return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
    return {link: 'link', heading: 'heading', image: 'img', button: 'button'}[kind] || kind;
  };
  const byIds = (el, ids) => ids.split(/\s+/).map((id) => el.getRootNode().getElementById?.(id))
    .filter(Boolean).map((n) => n.textContent).join(' ');
  const nameOf = (el) => {
    const ids = el.getAttribute('aria-labelledby');
    const named = (ids && norm(byIds(el, ids))) || norm(el.getAttribute('aria-label'))
      || (el.labels && el.labels.length ? norm([...el.labels].map((l) => l.innerText || l.textContent).join(' ')) : '')
      || norm(el.getAttribute('alt'));
    if (named) return named;
    if (el.localName === 'input') {
      if (['button', 'submit', 'reset'].includes(el.type)) return norm(el.value) || (el.type === 'submit' ? 'Submit' : '');
      return norm(el.getAttribute('title') || el.getAttribute('placeholder'));
    }
    if (['textarea', 'select', 'img'].includes(el.localName)) return norm(el.getAttribute('title'));
    return norm(el.innerText !== undefined ? el.innerText : el.textContent) || norm(el.getAttribute('title'));
  };
  const visible = (el) => {
    if (el.checkVisibility && !el.checkVisibility({visibilityProperty: true})) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const unique = (root, sel, el) => {
    try { const m = root.querySelectorAll(sel); return m.length === 1 && m[0] === el; } catch { return false; }
  };
  const quote = (v) => '"' + v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\a ') + '"';
  const ATTRS = ['data-testid', 'data-test', 'data-cy', 'name', 'aria-label', 'placeholder', 'alt', 'title', 'href'];
  const localSelector = (el, root) => {
    const tag = CSS.escape(el.localName);
    if (el.id && unique(root, '#' + CSS.escape(el.id), el)) return '#' + CSS.escape(el.id);
    for (const attr of ATTRS) {
      const v = el.getAttribute(attr);
      if (!v || v.length > 80) continue;
      const sel = (attr.startsWith('data-') ? '' : tag) + '[' + attr + '=' + quote(v) + ']';
      if (unique(root, sel, el)) return sel;
    }
    let path = '';
    for (let n = el; n && n.nodeType === 1; n = n.parentElement) {
      let seg = CSS.escape(n.localName);
      if (n !== el && n.id && unique(root, '#' + CSS.escape(n.id), n)) seg = '#' + CSS.escape(n.id);
      else {
        const siblings = n.parentNode ? [...n.parentNode.children].filter((c) => c.localName === n.localName) : [n];
        if (siblings.length > 1) seg += ':nth-of-type(' + (siblings.indexOf(n) + 1) + ')';
      }
      path = path ? seg + ' > ' + path : seg;
      if (unique(root, path, el)) return path;
    }
    return path;
  };
  const selectorOf = (el) => {
    const root = el.getRootNode();
    const local = localSelector(el, root);
    return root instanceof ShadowRoot ? selectorOf(root.host) + ' >>> ' + local : local;
  };
  const describe = (el, kind) => {
    const item = {kind, selector: selectorOf(el), tag: el.localName};
    const role = roleOf(el, kind);
    if (role !== kind && !(kind === 'image' && role === 'img')) item.role = role;
    const name = clip(nameOf(el), 80);
    if (name) item.name = name;
    if (kind === 'input' || kind === 'select') {
      if (el.localName === 'input') item.type = (el.type || 'text').toLowerCase();
      if (el.localName === 'select') {
        const chosen = [...el.selectedOptions].map((o) => norm(o.label || o.text));
        if (chosen.length) item.value = clip(chosen.join(', '), 80);
        item.options = el.options.length;
      } else if ('value' in el && el.value) {
        item.value = item.type === 'password' ? '••••' : clip(el.value, 80);
      } else if (el.isContentEditable && norm(el.innerText)) {
        item.value = clip(el.innerText, 80);
      }
      if (el.placeholder) item.placeholder = clip(el.placeholder, 80);
      if (item.type === 'checkbox' || item.type === 'radio') item.checked = el.checked;
      else if (el.hasAttribute('aria-checked')) item.checked = el.getAttribute('aria-checked') === 'true';
      if (el.required) item.required = true;
    }
    if (kind === 'heading') item.level = Number(el.getAttribute('aria-level')) || Number(el.localName.slice(1)) || 2;
    if (kind === 'link' && el.getAttribute('href')) item.href = clip(el.getAttribute('href'), 120);
    if (kind === 'image' && !name && el.getAttribute('src')) item.src = clip(el.getAttribute('src').split('/').pop(), 60);
    if (el.disabled || el.getAttribute('aria-disabled') === 'true') item.disabled = true;
    return item;
  };
  const items = [], elements = [], frames = [];
  let total = 0;
  const consider = (el) => {
    if (el.matches('iframe, frame') && visible(el) && frames.length < 20) {
      frames.push({selector: selectorOf(el), name: el.getAttribute('name') || el.id || '',
                   src: clip(el.getAttribute('src') || '', 120)});
    } else if (el.matches(ANY)) {
      const kind = kindOf(el);
      if (opts.include[kind] && visible(el)) {
        total += 1;
        if (total > opts.offset && items.length < opts.max) {
          items.push(describe(el, kind));
          elements.push(el);
        }
      }
    }
  };
  const walk = (node) => {
    for (const el of node.querySelectorAll('*')) {
      consider(el);
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  if (root) {
    consider(root);
    walk(root);
    if (root.shadowRoot) walk(root.shadowRoot);
  } else {
    walk(document);
  }
  elements.data = {url: location.href, title: clip(document.title, 200), items, total, frames};
  return elements;
}
