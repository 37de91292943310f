// Function expression (selectors): returns per selector its validity, matches, visible matches and, when it matches nothing, suggestions.
(selectors) => {
  const deepAll = (root) => {
    const out = [];
    const walk = (node) => { for (const e of node.querySelectorAll('*')) { out.push(e); if (e.shadowRoot) walk(e.shadowRoot); } };
    walk(root);
    return out;
  };
  const query = (selector) => {
    const hops = selector.split(/\s*>>>\s*/);
    let roots = [document], found = [];
    hops.forEach((hop, i) => {
      found = [];
      for (const root of roots) found.push(...root.querySelectorAll(hop));
      if (i < hops.length - 1) roots = found.map((e) => e.shadowRoot || e.contentDocument).filter(Boolean);
    });
    return found;
  };
  const visible = (el) => {
    if (el.checkVisibility && !el.checkVisibility({visibilityProperty: true})) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  let inventory = null;
  const inventoryOf = () => {
    if (inventory) return inventory;
    inventory = {id: new Set(), class: new Set(), testid: new Set(), name: new Set()};
    for (const e of deepAll(document)) {
      if (e.id) inventory.id.add(e.id);
      for (const c of e.classList) inventory.class.add(c);
      if (e.getAttribute('data-testid')) inventory.testid.add(e.getAttribute('data-testid'));
      if (e.getAttribute('name')) inventory.name.add(e.getAttribute('name'));
    }
    return inventory;
  };
  const lev = (a, b) => {
    const d = Array.from({length: b.length + 1}, (_, i) => i);
    for (let i = 1; i <= a.length; i++) {
      let prev = d[0]; d[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const tmp = d[j];
        d[j] = Math.min(d[j] + 1, d[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
        prev = tmp;
      }
    }
    return d[b.length];
  };
  const squash = (s) => s.toLowerCase().replace(/[-_\s]/g, '');
  const similarity = (want, have) => {
    if (want === have) return 0;
    if (squash(want) === squash(have)) return 1;
    const distance = lev(want.toLowerCase(), have.toLowerCase());
    if (distance <= Math.max(1, Math.floor(want.length / 4))) return 1 + distance;
    if (want.length >= 3 && have.length >= 3 && (have.toLowerCase().includes(want.toLowerCase()) || want.toLowerCase().includes(have.toLowerCase()))) return 5;
    return null;
  };
  const quote = (v) => '"' + v.replace(/\\/g, '\\\\').replace(/"/g, '\\"') + '"';
  const render = {id: (v) => '#' + CSS.escape(v), class: (v) => '.' + CSS.escape(v),
                  testid: (v) => '[data-testid=' + quote(v) + ']', name: (v) => '[name=' + quote(v) + ']'};
  const TOKENS = [
    [/#((?:\\.|[\w-])+)/g, 'id'],
    [/\.((?:\\.|[\w-])+)/g, 'class'],
    [/\[\s*data-testid\s*=\s*["']?([^"'\]]+)["']?\s*\]/g, 'testid'],
    [/\[\s*name\s*=\s*["']?([^"'\]]+)["']?\s*\]/g, 'name'],
  ];
  const suggest = (selector) => {
    const out = [];
    const seen = new Set();
    for (const [re, kind] of TOKENS) {
      for (const m of selector.matchAll(re)) {
        const want = m[1].replace(/\\(.)/g, '$1');
        const inv = inventoryOf();
        const ranked = [];
        for (const [have_kind, values] of Object.entries(inv)) {
          for (const have of values) {
            const score = similarity(want, have);
            if (score === null || (score === 0 && have_kind === kind)) continue;
            ranked.push([score + (have_kind === kind ? 0 : 0.5), have_kind, have]);
          }
        }
        ranked.sort((a, b) => a[0] - b[0]);
        for (const [, have_kind, have] of ranked.slice(0, 8)) {
          const candidate = selector.slice(0, m.index) + render[have_kind](have) + selector.slice(m.index + m[0].length);
          if (seen.has(candidate)) continue;
          seen.add(candidate);
          let count = 0;
          try { count = query(candidate).length; } catch { continue; }
          if (count) out.push({selector: candidate, count, reason: kind + ' ' + quote(want) + ' not found; the page has ' + have_kind + ' ' + quote(have)});
          if (out.length >= 5) return out;
        }
      }
    }
    return out;
  };
  return selectors.map((selector) => {
    let list;
    try { list = query(selector); }
    catch (e) {
      return {selector, valid: false, exists: false, visible: false, count: 0, visible_count: 0,
              error: String(e.message).split('\n')[0], suggestions: suggest(selector)};
    }
    const shown = list.filter(visible).length;
    return {selector, valid: true, exists: list.length > 0, visible: shown > 0, count: list.length,
            visible_count: shown, error: null, suggestions: list.length ? [] : suggest(selector)};
  });
}
