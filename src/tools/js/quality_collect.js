// Whole script, an expression: returns the loaded page's metrics (from window.__a11yVitals and performance entries) and the facts the SEO and best-practice checks need.
(() => {
  const v = window.__a11yVitals || {lcp: null, cls: 0, longTasks: []};
  const fcpEntry = performance.getEntriesByType('paint').find((e) => e.name === 'first-contentful-paint');
  const fcp = fcpEntry ? fcpEntry.startTime : null;
  const tbt = (v.longTasks || []).filter(([start]) => fcp === null || start >= fcp)
    .reduce((sum, [, d]) => sum + Math.max(0, d - 50), 0);
  const nav = performance.getEntriesByType('navigation')[0] || {};
  const meta = (name) => { const m = document.querySelector(`meta[name="${name}" i]`); return m ? m.content : null; };
  const links = [...document.querySelectorAll('a')];
  const GENERIC = ['click here', 'here', 'read more', 'more', 'link', 'learn more', 'this', 'go'];
  const images = [...document.images];
  const aspect = images.filter((img) => img.naturalWidth && img.width && img.height).filter((img) => {
    const shown = img.width / img.height, natural = img.naturalWidth / img.naturalHeight;
    const fit = getComputedStyle(img).objectFit;
    return fit !== 'cover' && fit !== 'contain' && Math.abs(shown - natural) / natural > 0.05;
  }).map((img) => img.currentSrc || img.src);
  const canonical = document.querySelector('link[rel="canonical"]');
  return {
    fcp, lcp: v.lcp, lcpElement: v.lcpElement, cls: v.cls, tbt,
    load: nav.loadEventEnd || null, status: nav.responseStatus || null,
    title: document.title.trim(), description: (meta('description') || '').trim(),
    viewport: meta('viewport'), robots: (meta('robots') || '').toLowerCase(),
    lang: document.documentElement.getAttribute('lang') || '',
    canonical: canonical ? canonical.href : null,
    uncrawlable: links.filter((a) => !a.getAttribute('href') || /^\s*javascript:/i.test(a.getAttribute('href'))).length,
    genericLinks: links.filter((a) => GENERIC.includes(a.textContent.trim().toLowerCase())).map((a) => a.textContent.trim()),
    imagesWithoutAlt: images.filter((img) => !img.hasAttribute('alt')).map((img) => img.currentSrc || img.src),
    doctype: document.doctype ? document.doctype.name : null,
    charset: document.characterSet, charsetDeclared: !!document.querySelector('meta[charset], meta[http-equiv="content-type" i]'),
    protocol: location.protocol, hostname: location.hostname,
    distortedImages: aspect,
  };
})()
