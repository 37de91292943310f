// Function expression, on an element (this): returns each strategy's locator proven unique in the page, {css, xpath, testid, text, meta}.
(function () {
  const el = this;
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const low = (s) => norm(s).toLowerCase();
  const deepAll = (root) => {
    const out = [];
    const walk = (node) => { for (const e of node.querySelectorAll('*')) { out.push(e); if (e.shadowRoot) walk(e.shadowRoot); } };
    walk(root);
    return out;
  };
  const quote = (v) => '"' + v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\a ') + '"';
  const uniqueIn = (scope, sel, target) => {
    try { const l = scope.querySelectorAll(sel); return l.length === 1 && l[0] === target; } catch { return false; }
  };
  const step = (node) => {
    let s = CSS.escape(node.localName);
    const parent = node.parentElement || node.parentNode;
    if (parent && parent.children) {
      const same = [...parent.children].filter((c) => c.localName === node.localName);
      if (same.length > 1) s += ':nth-of-type(' + (same.indexOf(node) + 1) + ')';
    }
    return s;
  };
  const ATTRS = ['data-testid', 'data-test', 'data-qa', 'name', 'aria-label', 'placeholder', 'title', 'alt', 'for', 'href', 'type'];
  const cssIn = (target, scope) => {
    const tag = CSS.escape(target.localName);
    const cands = [];
    if (target.id) cands.push('#' + CSS.escape(target.id));
    for (const a of ATTRS) if (target.hasAttribute(a)) cands.push(tag + '[' + a + '=' + quote(target.getAttribute(a)) + ']');
    for (const c of target.classList) cands.push(tag + '.' + CSS.escape(c));
    for (const c of cands) if (uniqueIn(scope, c, target)) return c;
    const path = [];
    for (let node = target; node && node.nodeType === 1; node = node.parentElement) {
      if (node !== target && node.id && uniqueIn(scope, '#' + CSS.escape(node.id), node)) { path.unshift('#' + CSS.escape(node.id)); }
      else path.unshift(step(node));
      const sel = path.join(' > ');
      if (uniqueIn(scope, sel, target)) return sel;
      if (path[0].startsWith('#')) break;
    }
    return null;
  };
  const cssPath = (target) => {
    const root = target.getRootNode();
    const inner = cssIn(target, root);
    if (!inner) return null;
    if (root instanceof ShadowRoot) { const host = cssPath(root.host); return host ? host + ' >>> ' + inner : null; }
    return inner;
  };
  const lit = (v) => !v.includes("'") ? "'" + v + "'" : !v.includes('"') ? '"' + v + '"'
    : 'concat(' + v.split("'").map((p) => "'" + p + "'").join(", \"'\", ") + ')';
  const xcount = (x) => {
    try { const r = document.evaluate(x, document, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null); return r.snapshotLength === 1 && r.snapshotItem(0) === el; } catch { return false; }
  };
  const xname = (n) => n.namespaceURI === 'http://www.w3.org/1999/xhtml' ? n.localName : "*[local-name()='" + n.localName + "']";
  const xpath = () => {
    if (el.getRootNode() !== document) return null;
    const t = xname(el);
    const cands = [];
    if (el.id) cands.push('//' + t + '[@id=' + lit(el.id) + ']');
    for (const a of ['data-testid', 'name', 'aria-label', 'placeholder']) if (el.hasAttribute(a)) cands.push('//' + t + '[@' + a + '=' + lit(el.getAttribute(a)) + ']');
    const own = norm(el.textContent);
    if (own && own.length <= 80) cands.push('//' + t + '[normalize-space(.)=' + lit(own) + ']');
    for (const c of cands) if (xcount(c)) return c;
    const parts = [];
    for (let n = el; n && n.nodeType === 1; n = n.parentElement) {
      const same = n.parentElement ? [...n.parentElement.children].filter((c) => c.localName === n.localName) : [n];
      parts.unshift(xname(n) + (same.length > 1 ? '[' + (same.indexOf(n) + 1) + ']' : ''));
    }
    const abs = '/' + parts.join('/');
    return xcount(abs) ? abs : null;
  };
  const testid = () => {
    const v = el.getAttribute('data-testid');
    if (v === null) return {error: 'the element has no data-testid attribute'};
    const n = deepAll(document).filter((e) => e.getAttribute('data-testid') === v).length;
    return n === 1 ? {value: v} : {error: n + ' elements share data-testid ' + quote(v)};
  };
  const SKIP = new Set(['script', 'style', 'head', 'noscript', 'template', 'title']);
  const text = () => {
    const t = norm(el.innerText);
    if (!t) return {error: 'the element has no visible text'};
    if (t.length > 120) return {error: 'the element text is too long for a text locator (' + t.length + ' characters)'};
    const all = deepAll(document.body || document).filter((e) => !SKIP.has(e.localName) && low(e.innerText).includes(low(t)));
    const leaves = all.filter((e) => !all.some((o) => o !== e && e.contains(o)));
    const exact = leaves.filter((e) => low(e.innerText) === low(t));
    if (exact.length === 1 && exact[0] === el) return {value: t};
    if (exact.length === 1) return {error: 'its text ' + quote(t) + ' resolves to a descendant <' + exact[0].localName + '>, not the element itself'};
    return {error: exact.length + ' elements have the text ' + quote(t)};
  };
  const labelOf = () => {
    if (el.getAttribute('aria-label')) return norm(el.getAttribute('aria-label'));
    if (el.labels && el.labels.length) return norm([...el.labels].map((l) => l.innerText).join(' '));
    return null;
  };
  const c = cssPath(el);
  return {
    css: c ? {value: c} : {error: 'no unique CSS path found'},
    xpath: (() => { const x = xpath(); return x ? {value: x} : {error: el.getRootNode() !== document ? 'the element is inside a shadow root, which XPath cannot reach' : 'no unique XPath found'}; })(),
    testid: testid(),
    text: text(),
    meta: {tag: el.localName, id: el.id || null, testid: el.getAttribute('data-testid'), label: labelOf(),
           text: norm(el.innerText).slice(0, 200) || null, classes: [...el.classList]},
  };
})
