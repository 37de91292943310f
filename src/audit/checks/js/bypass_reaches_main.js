// Function expression (node), the axe check of a11y-bypass-reaches-main, run on the top
// document's html element of a page with repeated blocks (navigation, banner, complementary,
// content info): returns true when nothing non-repeated follows the repeated blocks or a
// visible heading, a main landmark or a skip link reaches it; undefined when only a control
// whose effect a script decides (a button, a link to "#") might; false otherwise.
/* global axe */
(function (node) {
  const doc = node.ownerDocument;
  const { aria, dom } = axe.commons;
  const body = doc.body;
  if (!body) return true;
  const REPEATED = ['navigation', 'banner', 'complementary', 'contentinfo'];
  const repeated = Array.from(body.querySelectorAll('nav, header, aside, footer, [role]')).filter(
    (el) => REPEATED.includes(aria.getRole(el)),
  );
  const inRepeated = (n) => repeated.some((block) => block.contains(n));
  const meaningful = /[\p{L}\p{N}]/u;
  const shown = (el) => !!el && dom.isVisibleOnScreen(el);
  const firstTextFrom = (start, skipRepeated) => {
    const walker = doc.createTreeWalker(body, NodeFilter.SHOW_TEXT);
    walker.currentNode = start;
    while (walker.nextNode()) {
      const text = walker.currentNode;
      if (!meaningful.test(text.data) || !shown(text.parentElement)) continue;
      if (skipRepeated && inRepeated(text)) continue;
      return text;
    }
    return null;
  };
  if (!repeated.length) return true;
  const content = firstTextFrom(repeated[0], true);
  if (!content) return true;
  const included = (el) => dom.isVisibleToScreenReaders(el);

  const landmark = Array.from(body.querySelectorAll('main, [role], section, form')).some((el) => {
    const role = aria.getRole(el);
    if (!included(el) || inRepeated(el)) return false;
    if (role === 'main') return el.contains(firstTextFrom(el, false));
    return ['region', 'form', 'search'].includes(role) && el.contains(content);
  });
  if (landmark) return true;

  const heading = Array.from(body.querySelectorAll('h1, h2, h3, h4, h5, h6, [role="heading"]')).some(
    (el) => aria.getRole(el) === 'heading' && !inRepeated(el) && included(el) && shown(el),
  );
  if (heading) return true;

  const page = doc.URL.split('#')[0];
  const broken = [];
  const possible = [];
  for (const el of body.querySelectorAll('a[href], button, [role="button"], [role="link"], input[type="button"]')) {
    if (!dom.isFocusable(el) || !(content.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_PRECEDING)) continue;
    const href = el.localName === 'a' ? el.getAttribute('href').trim() : null;
    if (href === null || href === '' || href === '#' || /^javascript:/i.test(href)) {
      possible.push(el);
      continue;
    }
    let id;
    try {
      const url = new URL(href, doc.baseURI);
      if (!url.hash || url.href.split('#')[0] !== page) continue;
      id = decodeURIComponent(url.hash.slice(1));
    } catch {
      continue; // no URL, or a fragment that is not valid percent-encoding
    }
    const target = doc.getElementById(id) || doc.getElementsByName(id)[0];
    const reached = target ? firstTextFrom(target, false) : null;
    if (reached && !inRepeated(reached)) return true;
    broken.push(el);
  }
  this.relatedNodes(possible.length ? possible : broken);
  return possible.length ? undefined : false;
})
