// Function expression (node), the matches of a11y-duplicate-id-ref: returns true for an
// element whose id an earlier element of the same document or shadow root already has, when
// some element of that root refers to the id (an ARIA id reference, label for, headers): the
// reference reaches the earlier element, never this one.
/* global axe */
(function (node) {
  const root = node.getRootNode();
  const id = node.getAttribute('id');
  if (!id || !root.querySelectorAll) return false;
  const REFS = [
    'aria-labelledby', 'aria-describedby', 'aria-controls', 'aria-owns', 'aria-activedescendant',
    'aria-errormessage', 'aria-details', 'aria-flowto',
  ];
  const cache = axe._cache.get('a11y-duplicate-id-ref', () => new Map());
  if (!cache.has(root)) {
    const byId = new Map();
    for (const el of root.querySelectorAll('[id]')) {
      if (!byId.has(el.id)) byId.set(el.id, []);
      byId.get(el.id).push(el);
    }
    const referenced = new Set();
    const selector = REFS.map((name) => `[${name}]`).concat(['label[for]', 'td[headers]', 'th[headers]']).join(', ');
    for (const el of root.querySelectorAll(selector)) {
      for (const name of REFS.concat(['for', 'headers'])) {
        if (name === 'for' && el.localName !== 'label') continue;
        const value = el.getAttribute(name);
        if (!value) continue;
        const ids = name === 'for' ? [value] : value.trim().split(/\s+/);
        ids.forEach((ref) => referenced.add(ref));
      }
    }
    cache.set(root, { byId, referenced });
  }
  const { byId, referenced } = cache.get(root);
  const same = byId.get(id) || [];
  return referenced.has(id) && same.length > 1 && same[0] !== node;
})
