/* global a11yProbe */
// Function expression (limits): the sets of links with matching accessible names and the same programmatically determined link context (ACT's: listitem ancestors, the closest block container, the closest cell and its headers, aria-describedby), each {name, links: [{target, html, url}], outcome, detail}: outcome 'same' (one resource, after redirects and instant refreshes), 'equivalent' (documents with the same title and main text), 'different' (documents that differ) or 'unknown' (another origin, a script's link, a fetch that failed or was not tried, documents alike before their scripts run); detail.documents lists what was fetched; at most limits.groups sets, limits.fetches documents fetched (same origin, GET, limits.fetchMs each, none started after limits.totalMs).
async function (limits) {
  const clean = (text) => (text || '').replace(/\s+/g, ' ').trim();
  // Links that may act rather than show a document are never fetched.
  const RISKY = /(log-?out|sign-?out|log-?off|delete|remove|unsubscribe|cancel|cart|basket|checkout|order|buy|vote|like|subscribe|confirm|approve|reject|download|export|print|action=|token=|nonce=)/i;
  const hidden = (el) => el.closest('[aria-hidden="true"], [hidden]')
    || (el.checkVisibility && !el.checkVisibility({visibilityProperty: true}) && getComputedStyle(el).display !== 'contents');
  const textOf = (el) => {
    let text = '';
    for (const node of el.childNodes) {
      if (node.nodeType === 3) text += node.data;
      else if (node.nodeType === 1 && !node.closest('[aria-hidden="true"]')) {
        text += node.localName === 'img' || node.localName === 'area' ? ` ${node.getAttribute('alt') || ''} ` : ` ${node.getAttribute('aria-label') || textOf(node)} `;
      }
    }
    return text;
  };
  const nameOf = (el) => {
    const labelledby = (el.getAttribute('aria-labelledby') || '').trim();
    if (labelledby) return clean(labelledby.split(/\s+/).map((id) => textOf(document.getElementById(id) || document.createElement('i'))).join(' '));
    if (el.hasAttribute('aria-label') && clean(el.getAttribute('aria-label'))) return clean(el.getAttribute('aria-label'));
    return clean(textOf(el)) || clean(el.getAttribute('title'));
  };
  const urlOf = (el) => {
    const href = el.getAttribute('href') ?? el.getAttribute('xlink:href');
    if (href !== null && href !== undefined) {
      try {
        return new URL(href, document.baseURI).href;
      } catch {
        return null;
      }
    }
    // A script link: the address it assigns to location, when written out plainly.
    const match = /location(?:\.href)?\s*=\s*(['"])([^'"]+)\1/.exec(el.getAttribute('onclick') || '');
    if (match) {
      try {
        return new URL(match[2], document.baseURI).href;
      } catch {
        return null;
      }
    }
    return null;
  };
  const blockContainer = (el) => {
    for (let node = el.parentElement; node; node = node.parentElement) {
      const display = getComputedStyle(node).display;
      if (/^(block|inline-block|list-item|table-cell|table-caption|flow-root)$|^(block|inline|list-item) flow-root$|^block flow$/.test(display)) return node;
    }
    return document.documentElement;
  };
  const ids = new Map();
  const idOf = (el) => {
    if (!ids.has(el)) ids.set(el, ids.size + 1);
    return ids.get(el);
  };
  const contextOf = (el) => {
    const parts = [];
    for (let node = el.parentElement; node; node = node.parentElement) {
      if (node.localName === 'li' || node.getAttribute('role') === 'listitem') parts.push('l' + idOf(node));
    }
    parts.push('b' + idOf(blockContainer(el)));
    const cell = el.closest('td, th, [role="cell"], [role="gridcell"]');
    if (cell) {
      parts.push('c' + idOf(cell));
      for (const id of (cell.getAttribute('headers') || '').split(/\s+/).filter(Boolean)) parts.push('h' + id);
    }
    for (const id of (el.getAttribute('aria-describedby') || '').split(/\s+/).filter(Boolean)) parts.push('d' + id);
    return parts.join(' ');
  };

  // Links by matching name (case and white space aside) first: contexts only for those.
  const byName = new Map();
  let scanned = 0;
  for (const el of document.querySelectorAll('a[href], area[href], [role~="link"], svg a[*|href]')) {
    if (++scanned > limits.links) break;
    const role = (el.getAttribute('role') || '').trim().split(/\s+/)[0];
    if (role && role !== 'link') continue;
    if (hidden(el)) continue;
    const name = nameOf(el);
    if (!name) continue;
    const key = name.toLowerCase();
    if (!byName.has(key)) byName.set(key, {name, links: []});
    byName.get(key).links.push(el);
  }
  const groups = [];
  for (const {name, links} of byName.values()) {
    if (links.length < 2) continue;
    const byContext = new Map();
    for (const el of links) {
      const key = contextOf(el);
      if (!byContext.has(key)) byContext.set(key, []);
      byContext.get(key).push(el);
    }
    for (const members of byContext.values()) {
      if (members.length >= 2 && groups.length < limits.groups) groups.push({name, members});
    }
  }

  // Documents, fetched once each: where they end (redirects, instant refreshes) and what they say.
  const fetched = new Map();
  let fetches = 0;
  const until = performance.now() + limits.totalMs;
  const load = async (url) => {
    if (fetched.has(url)) return fetched.get(url);
    let result = null;
    if (fetches < limits.fetches && performance.now() < until && new URL(url).origin === location.origin
        && !RISKY.test(url)) {
      fetches += 1;
      const abort = new AbortController();
      const timer = setTimeout(() => abort.abort(), Math.min(limits.fetchMs, until - performance.now() + 100));
      try {
        let response = await fetch(url, {credentials: 'same-origin', signal: abort.signal, headers: {Accept: 'text/html'}});
        let html = (await response.text()).slice(0, limits.bytes);
        let doc = new DOMParser().parseFromString(html, 'text/html');
        const refresh = doc.querySelector('meta[http-equiv="refresh" i]');
        const instant = refresh && /^\s*0*\s*[;,]\s*url\s*=\s*['"]?([^'"]+)/i.exec(refresh.getAttribute('content') || '');
        if (instant && fetches < limits.fetches) {
          const next = new URL(instant[1].trim(), response.url).href;
          if (new URL(next).origin === location.origin && !RISKY.test(next)) {
            fetches += 1;
            response = await fetch(next, {credentials: 'same-origin', signal: abort.signal, headers: {Accept: 'text/html'}});
            html = (await response.text()).slice(0, limits.bytes);
            doc = new DOMParser().parseFromString(html, 'text/html');
          }
        }
        const main = doc.querySelector('main, [role="main"]') || doc.body;
        for (const skip of main ? main.querySelectorAll('script, style, noscript, template') : []) skip.remove();
        result = response.ok ? {
          url: response.url.split('#')[0],
          title: clean(doc.title),
          text: clean(main ? main.textContent : ''),
          scripted: Boolean(doc.querySelector('script')),
        } : null;
      } catch {
        result = null;
      } finally {
        clearTimeout(timer);
      }
    }
    fetched.set(url, result);
    return result;
  };

  const out = [];
  for (const {name, members} of groups) {
    const urls = members.map(urlOf);
    const links = members.map((el, i) => ({...a11yProbe.describe(el), url: urls[i]}));
    const distinct = [...new Set(urls)];
    let outcome = 'unknown';
    let detail = {};
    if (!urls.includes(null) && distinct.length === 1) {
      outcome = 'same';
    } else if (!urls.includes(null)) {
      const docs = [];
      for (const url of distinct) docs.push(await load(url));
      if (docs.every(Boolean)) {
        const first = docs[0];
        const paths = new Set(distinct.map((u) => new URL(u).pathname));
        const alike = docs.every((d) => d.title === first.title && d.text === first.text);
        if (docs.every((d) => d.url === first.url)) {
          outcome = 'same';
        } else if (alike && (first.title + first.text).length >= limits.minText
            && (paths.size > 1 || !docs.some((d) => d.scripted))) {
          outcome = 'equivalent';
        } else {
          // Alike but scripted, differing in the query only: scripts may build different pages.
          outcome = alike ? 'unknown' : 'different';
        }
        detail = {documents: docs.map((d) => ({url: d.url, title: d.title.slice(0, 80)}))};
      }
    }
    out.push({name: name.slice(0, 120), links, outcome, detail});
  }
  return out;
}
