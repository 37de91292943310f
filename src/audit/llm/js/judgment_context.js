// Function expression (kind, limit), installed as __a11yLlm.context beside the evidence helpers
// (audit.llm.evidence) and called on the element of a judgment item (this): returns
// the context its question needs as {label: text}, each text at most limit characters; kind is
// title, heading, link, label, image or video.
(function (kind, limit) {
  const el = this;
  const doc = el.ownerDocument;
  const HEADINGS = 'h1, h2, h3, h4, h5, h6, [role~="heading"]';
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const clip = (s, n) => { s = norm(s); return s.length > n ? s.slice(0, n - 1) + '\u2026' : s; };
  const textOf = (n) => (n ? norm(n.innerText !== undefined ? n.innerText : n.textContent) : '');
  const out = {};
  const put = (label, value, n) => { const v = clip(value, n || limit); if (v) out[label] = v; };
  const byIds = (node, attr) => (node.getAttribute(attr) || '').split(/\s+/).filter(Boolean)
    .map((id) => textOf(doc.getElementById(id))).join(' ');
  const levelOf = (h) => parseInt(h.getAttribute('aria-level'), 10) || parseInt(h.localName.slice(1), 10) || 2;
  const headingBefore = (node) => {
    let found = null;
    for (const h of doc.querySelectorAll(HEADINGS)) {
      if (h === node || h.contains(node)) continue;
      if (h.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_FOLLOWING) found = h;
      else break;
    }
    return found;
  };
  // The rendered text after the element (outside it) up to the next heading of level <= stopLevel.
  const textAfter = (node, stopLevel, n) => {
    const walker = doc.createTreeWalker(doc.body || doc.documentElement, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    walker.currentNode = node;
    const parts = [];
    let size = 0;
    for (let next = walker.nextNode(); next && size < n; next = walker.nextNode()) {
      if (node.contains(next)) continue;
      if (next.nodeType === 1) {
        if (next.matches(HEADINGS) && levelOf(next) <= stopLevel) break;
        continue;
      }
      const parent = next.parentElement;
      if (!parent || ['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE'].includes(parent.tagName)) continue;
      if (parent.checkVisibility && !parent.checkVisibility()) continue;
      const t = norm(next.textContent);
      if (t) { parts.push(t); size += t.length + 1; }
    }
    return parts.join(' ');
  };
  const describeImage = (node) => {
    const src = node.currentSrc || node.src || (node.getAttribute && (node.getAttribute('data') || node.getAttribute('href'))) || '';
    const bg = getComputedStyle(node).backgroundImage || '';
    put('Image source', src || (bg.startsWith('url(') ? bg : ''));
    if (node.hasAttribute('alt')) put('alt attribute', JSON.stringify(node.getAttribute('alt')));
    const around = node.parentElement && node.parentElement.closest('a, button, figure, label, [role="link"], [role="button"]');
    if (around) put('Inside ' + around.localName, textOf(around) || around.getAttribute('aria-label'));
    const caption = node.closest('figure') && node.closest('figure').querySelector('figcaption');
    if (caption) put('Figure caption', textOf(caption));
  };
  const surrounding = (node) => {
    const block = node.parentElement && node.parentElement.closest('p, li, td, th, dd, dt, blockquote, figcaption, caption, label, legend');
    if (block) put('Enclosing ' + block.localName, textOf(block));
    return block;
  };
  if (kind === 'title') {
    put('Page headings', [...doc.querySelectorAll('h1, h2, h3')].slice(0, 8).map(textOf).filter(Boolean).join(' | '));
    put('Page text (start)', textOf(doc.body), limit * 3);
  } else if (kind === 'heading') {
    const level = levelOf(el);
    put('Heading level', String(level));
    put('Content after the heading (to the next heading of its level)', textAfter(el, level, limit * 2), limit * 2);
    const before = headingBefore(el);
    if (before) put('Heading before it', textOf(before));
  } else if (kind === 'link') {
    put('Link target', el.getAttribute('href') || el.getAttribute('xlink:href') || '');
    put('Description (aria-describedby)', byIds(el, 'aria-describedby'));
    const block = surrounding(el);
    const item = el.closest('li');
    const outer = item && item.parentElement && item.parentElement.closest('li');
    if (outer) put('Enclosing list item of its list', textOf(outer));
    const cell = el.closest('td, th');
    const table = cell && cell.closest('table');
    if (table && cell.parentElement) {
      const column = [...cell.parentElement.cells].indexOf(cell);
      const headers = [...table.rows].map((row) => row.cells[Math.min(column, row.cells.length - 1)])
        .filter((c) => c && c.localName === 'th' && c !== cell).map(textOf);
      const rowHeader = [...cell.parentElement.cells].find((c) => c.localName === 'th' && c !== cell);
      put('Table headers of its cell', [...headers, rowHeader ? textOf(rowHeader) : ''].filter(Boolean).join(' | '));
      put('Its table row', textOf(cell.parentElement));
    }
    if (!block && !cell && el.parentElement) put('Text around it', textOf(el.parentElement));
    const before = headingBefore(el);
    if (before) put('Heading before it', textOf(before));
  } else if (kind === 'label') {
    const fields = el.localName === 'label' && el.control ? [el.control]
      : [...doc.querySelectorAll('[aria-labelledby]')].filter((f) => f.getAttribute('aria-labelledby').split(/\s+/).includes(el.id));
    for (const field of fields.slice(0, 2)) {
      const facts = ['role', 'type', 'name', 'autocomplete', 'placeholder', 'aria-labelledby']
        .filter((a) => field.getAttribute(a)).map((a) => a + '=' + JSON.stringify(field.getAttribute(a)));
      put('Labelled field', '<' + field.localName + ' ' + facts.join(' ') + '>');
      if (field.getAttribute('aria-labelledby')) put('Full name from aria-labelledby', byIds(field, 'aria-labelledby'));
    }
    const group = el.closest('fieldset');
    if (group) put('Fieldset', textOf(group.querySelector('legend')) || textOf(group));
    const before = headingBefore(el);
    if (before) put('Heading before it', textOf(before));
  } else if (kind === 'image') {
    describeImage(el);
    surrounding(el);
  } else if (kind === 'video') {
    const tracks = [...el.querySelectorAll('track')].map((t) => ['kind', 'srclang', 'label', 'src']
      .filter((a) => t.getAttribute(a)).map((a) => a + '=' + JSON.stringify(t.getAttribute(a))).join(' '));
    put('Text tracks', tracks.length ? tracks.join('; ') : 'none');
    put('Video source', el.currentSrc || el.getAttribute('src') || '');
    if (Number.isFinite(el.duration)) put('Duration', Math.round(el.duration) + ' s');
    put('Description (aria-describedby)', byIds(el, 'aria-describedby'));
    const prev = el.previousElementSibling;
    if (prev) put('Content before it', textOf(prev));
  }
  return out;
})
