// Function expression (node, options), the axe check of a11y-bypass-reaches-main and of the
// checks of its separate techniques, run on the top document's html element of a page with
// repeated blocks (navigation, banner, complementary, content info). options.technique says
// which question it answers about the content after those blocks:
//   'any'      (2.4.1) something reaches it: a landmark, a heading or a skip link;
//   'heading'  a visible, exposed heading outside the repeated blocks (H69);
//   'landmark' a main landmark that holds content, or a region, form or search landmark
//              around the content;
//   'skip'     a same-page link whose target is followed by the content (G1, G123, G124);
//   'collapse' the repeated blocks can be collapsed when nothing else reaches the content
//              (SCR28): passes when another technique does.
// Returns true when nothing non-repeated follows the repeated blocks, or the technique is
// there; undefined when only a control whose effect a script decides (a button, a link to
// "#") might be it; false otherwise. The landmark question also runs on a page where no
// landmark marks a repeated block (js/bypass_landmark_applies.js): it is undefined there when
// the page opens with links or a list followed by other text and has no main landmark with
// content.
/* global axe */
(function (node, options) {
  const technique = (options && options.technique) || 'any';
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
  const included = (el) => dom.isVisibleToScreenReaders(el);
  const mainHoldsContent = () =>
    Array.from(body.querySelectorAll('main, [role]')).some(
      (el) => aria.getRole(el) === 'main' && included(el) && el.contains(firstTextFrom(el, false)),
    );
  if (!repeated.length) {
    if (technique !== 'landmark') return true;
    // No landmark marks a repeated block. When the page opens with links or a list followed by
    // other text, they may be a navigation block that is not marked as one: without a main
    // landmark, whether the content after them is in one is for a person to see.
    const LISTED = 'a, li';
    const first = firstTextFrom(body, false);
    if (!first || !first.parentElement.closest(LISTED) || mainHoldsContent()) return true;
    const walker = doc.createTreeWalker(body, NodeFilter.SHOW_TEXT);
    walker.currentNode = first;
    while (walker.nextNode()) {
      const text = walker.currentNode;
      if (meaningful.test(text.data) && shown(text.parentElement) && !text.parentElement.closest(LISTED)) {
        return undefined;
      }
    }
    return true;
  }
  const content = firstTextFrom(repeated[0], true);
  if (!content) return true;

  const hasLandmark = () =>
    Array.from(body.querySelectorAll('main, [role], section, form')).some((el) => {
      const role = aria.getRole(el);
      if (!included(el) || inRepeated(el)) return false;
      if (role === 'main') return el.contains(firstTextFrom(el, false));
      return ['region', 'form', 'search'].includes(role) && el.contains(content);
    });

  const hasHeading = () =>
    Array.from(body.querySelectorAll('h1, h2, h3, h4, h5, h6, [role="heading"]')).some(
      (el) => aria.getRole(el) === 'heading' && !inRepeated(el) && included(el) && shown(el),
    );

  // Same-page links before the content: whether one reaches it, the ones that do not, and
  // the controls a script may make skip (buttons, links to "#" or "javascript:").
  const skipLinks = () => {
    const page = doc.URL.split('#')[0];
    const found = { reached: false, broken: [], possible: [] };
    for (const el of body.querySelectorAll('a[href], button, [role="button"], [role="link"], input[type="button"]')) {
      if (!dom.isFocusable(el) || !(content.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_PRECEDING)) continue;
      const href = el.localName === 'a' ? el.getAttribute('href').trim() : null;
      if (href === null || href === '' || href === '#' || /^javascript:/i.test(href)) {
        found.possible.push(el);
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
      if (reached && !inRepeated(reached)) {
        found.reached = true;
        return found;
      }
      found.broken.push(el);
    }
    return found;
  };
  if (technique === 'heading') return hasHeading();
  if (technique === 'landmark') return hasLandmark();
  if (technique !== 'skip' && (hasLandmark() || hasHeading())) return true;
  const links = skipLinks();
  if (links.reached) return true;
  // A control a script may make skip or collapse turns the answer into a question; else the
  // skip links that lead nowhere useful are why it fails (they collapse nothing).
  const doubtful = links.possible;
  this.relatedNodes(doubtful.length || technique === 'collapse' ? doubtful : links.broken);
  return doubtful.length ? undefined : false;
})
