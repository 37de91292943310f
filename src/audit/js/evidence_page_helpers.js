// Whole script, run once in the LLM evidence's isolated world: installs globalThis.__a11yLlm
// ({resolve, describe, candidates, frameOffset}, the page-side half of audit.llm.evidence,
// whose resolve and frameOffset audit.screenshots shares); returns true.
(() => {
  const HOP = ' >>> ';
  const norm = s => (s || '').replace(/\s+/g, ' ').trim();
  const clip = (s, n) => { s = norm(s); return s.length > n ? s.slice(0, n - 1) + '\u2026' : s; };
  const textOf = el => norm(el.innerText !== undefined ? el.innerText : el.textContent);
  function resolve(selector) {
    let root = document, el = null;
    const hops = selector.split(HOP);
    for (let i = 0; i < hops.length; i++) {
      try { el = root.querySelector(hops[i]); } catch { return null; }
      if (!el) return null;
      if (i === hops.length - 1) return el;
      if (el.shadowRoot) { root = el.shadowRoot; continue; }
      let doc = null;
      try { doc = el.contentDocument; } catch { doc = null; }
      if (!doc) return null;
      root = doc;
    }
    return el;
  }
  function frameOffset(el) {
    let x = 0, y = 0, win = el.ownerDocument.defaultView;
    while (win && win !== window) {
      let fe = null;
      try { fe = win.frameElement; } catch { fe = null; }
      if (!fe) return null;
      const r = fe.getBoundingClientRect();
      x += r.left + fe.clientLeft; y += r.top + fe.clientTop;
      win = fe.ownerDocument.defaultView;
    }
    return {x, y};
  }
  function nearby(el, limit) {
    const own = textOf(el);
    let node = el.parentElement, text = '';
    for (let i = 0; node && i < 5; i++, node = node.parentElement) {
      const t = textOf(node);
      if (t && t !== own) { text = t; break; }
    }
    const at = own ? text.indexOf(own) : -1;
    if (at >= 0) {
      const half = Math.floor(limit / 2);
      return norm(text.slice(Math.max(0, at - half), at) + ' [this element] ' +
                  text.slice(at + own.length, at + own.length + half));
    }
    return clip(text, limit);
  }
  function describe(el, opts) {
    if (opts.scroll) el.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
    const cs = getComputedStyle(el);
    const html = el.outerHTML || '';
    let r = el.getBoundingClientRect();
    if (opts.tight && textOf(el)) {  // contrast: the text itself, not a full-width block
      const range = el.ownerDocument.createRange();
      range.selectNodeContents(el);
      const t = range.getBoundingClientRect();
      if (t.width > 0 && t.height > 0) r = t;
    }
    const off = frameOffset(el);
    return {
      tag: el.tagName.toLowerCase(),
      markup: html.length > opts.markup ? html.slice(0, opts.markup - 1) + '\u2026' : html,
      text: clip(textOf(el), opts.text),
      nearby: nearby(el, opts.text),
      style: {color: cs.color, backgroundColor: cs.backgroundColor, fontSize: cs.fontSize,
              fontWeight: cs.fontWeight, outline: cs.outlineStyle + ' ' + cs.outlineWidth},
      rect: off && r.width > 0 && r.height > 0 ? {
        x: r.left + off.x + window.scrollX, y: r.top + off.y + window.scrollY,
        width: r.width, height: r.height} : null,
    };
  }
  function selectorFor(el) {
    const root = el.getRootNode();
    if (el.id && root.querySelectorAll('#' + CSS.escape(el.id)).length === 1)
      return '#' + CSS.escape(el.id);
    const path = [];
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
      let k = 1;
      for (let s = node.previousElementSibling; s; s = s.previousElementSibling)
        if (s.tagName === node.tagName) k++;
      path.unshift(node.tagName.toLowerCase() + ':nth-of-type(' + k + ')');
      if (node.parentNode === root) break;
    }
    return path.join(' > ');
  }
  function linkText(a) {
    const label = a.getAttribute('aria-label');
    if (label && norm(label)) return norm(label);
    const ids = (a.getAttribute('aria-labelledby') || '').split(/\s+/).filter(Boolean);
    const by = ids.map(id => { const n = a.ownerDocument.getElementById(id); return n ? textOf(n) : ''; });
    if (norm(by.join(' '))) return norm(by.join(' '));
    const text = textOf(a);
    if (text) return text;
    const alts = [...a.querySelectorAll('img[alt]')].map(i => i.getAttribute('alt')).join(' ');
    return norm(alts) || norm(a.getAttribute('title'));
  }
  function candidates(exclude, limit) {
    const skip = new Set(exclude.map(resolve).filter(Boolean));
    const out = {images: [], links: [], imagesWithAlt: 0, linkCount: 0};
    const visible = el => el.getClientRects().length > 0 && !el.closest('[aria-hidden="true"]');
    const walk = (root, prefix) => {
      for (const el of root.querySelectorAll('img[alt], input[type=image][alt], area[alt]')) {
        const alt = norm(el.getAttribute('alt'));
        if (!alt || !visible(el)) continue;
        out.imagesWithAlt++;
        if (skip.has(el) || out.images.length >= limit) continue;
        const around = el.closest('a, button, figure, li, p') || el.parentElement;
        out.images.push({selector: prefix + selectorFor(el), alt,
                         src: el.currentSrc || el.src || '',
                         adjacent: around ? clip(textOf(around), 300) : ''});
      }
      for (const el of root.querySelectorAll('a[href], [role=link]')) {
        if (!visible(el)) continue;
        out.linkCount++;
        if (skip.has(el) || out.links.length >= limit) continue;
        const text = linkText(el);
        if (text && text.length <= 40)
          out.links.push({selector: prefix + selectorFor(el), text, href: el.getAttribute('href') || ''});
      }
      for (const host of root.querySelectorAll('*'))
        if (host.shadowRoot) walk(host.shadowRoot, prefix + selectorFor(host) + HOP);
    };
    walk(document, '');
    return out;
  }
  globalThis.__a11yLlm = {resolve, describe, candidates, frameOffset};
  return true;
})()
