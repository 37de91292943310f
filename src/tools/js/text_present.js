// Function expression (text, selector or null): a wait_for_text check; returns {done: true}, or {done: false, seen} with the start of the text there, or an error code.
// Matching is a case-insensitive substring with whitespace collapsed; selector may pierce shadow
// roots with `>>>`. A bad selector is fatal; no match for the selector is element_not_found.
(text, selector) => {
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const pierce = (sel) => {
    let roots = [document];
    let found = [];
    const hops = sel.split(/\s*>>>\s*/);
    hops.forEach((hop, i) => {
      found = roots.flatMap((root) => [...root.querySelectorAll(hop)]);
      if (i < hops.length - 1) roots = found.map((el) => el.shadowRoot || el.contentDocument).filter(Boolean);
    });
    return found;
  };
  const shadowText = (el) => {
    const parts = [];
    for (const host of el.querySelectorAll('*')) {
      if (host.shadowRoot) for (const child of host.shadowRoot.children) parts.push(child.innerText || '');
    }
    return norm(parts.join(' '));
  };
  const want = norm(text).toLowerCase();
  let scopes;
  if (selector) {
    try { scopes = pierce(selector); }
    catch (e) { return {fatal: true, code: 'invalid_arguments', reason: 'bad selector: ' + e.message}; }
    if (!scopes.length) return {done: false, code: 'element_not_found'};
  } else {
    if (!document.body) return {done: false, seen: ''};
    scopes = [document.body];
  }
  let seen = '';
  for (const scope of scopes) {
    const t = norm(scope.innerText !== undefined ? scope.innerText : scope.textContent);
    if (t.toLowerCase().includes(want)) return {done: true};
    seen = seen || t;
  }
  // Open shadow roots are not in innerText: look there only when the light DOM has no match.
  if (scopes.some((scope) => shadowText(scope).toLowerCase().includes(want))) return {done: true};
  return {done: false, seen: seen.slice(0, 200)};
}
