// Function expression (check, part), called once when the checks are configured: returns the
// matches (node, virtualNode) or the evaluate (node, options, virtualNode) of
// a11y-link-text-in-context (check 'context') or a11y-link-text-alone (check 'alone'). Both
// apply to an exposed link whose accessible name says nothing by itself ("click here", "read
// more", "here", ...) or is a bare web address; 'alone' also to one named only by a file format
// ("PDF", "EPUB", "Plain text") or by "this"/"that" and one word ("this product"), which by
// construction need their context (a format name on a link whose address is named after it,
// "csv" to #csv, is a topic's name and passes). 'alone' fails the phrases and the formats, and asks about
// addresses and "this ..."; 'context' fails the first only when no context a screen reader can reach (its
// sentence or paragraph, list, table cell with its row and headers, the heading before it in
// its section or the section's name, its description or title) says more, asks about it
// otherwise, and asks about an address only when that context is empty.
/* global axe */
(function (check, part) {
  const { aria, dom, table, text } = axe.commons;
  const LINKS = ['link', 'doc-backlink', 'doc-biblioref', 'doc-glossref', 'doc-noteref'];
  const GENERIC = new Set([
    'click here', 'click', 'here', 'go', 'more', 'read more', 'learn more', 'see more', 'view more', 'show more',
    'find out more', 'read on', 'more info', 'more information', 'more details', 'details', 'info',
    'link', 'this', 'this link', 'this page', 'click this link', 'go here', 'see here', 'read this',
    'more here', 'read more here', 'learn more here', 'click here to read more', 'click here for more',
    'click here for more information', 'click here for more info', 'click here for details',
    'click here to learn more', 'continue reading', 'keep reading', 'full story', 'read full story',
    'read the full story', 'read full article', 'read the full article', 'view details', 'see details',
    'download', 'download here', 'click here to download', 'website', 'web site', 'visit website',
    'tap here', 'press here', 'mehr', 'mehr lesen', 'weiterlesen', 'mehr erfahren', 'hier',
    'hier klicken', 'klicken sie hier', 'lire la suite', 'en savoir plus', 'ici', 'cliquez ici',
    'leer más', 'más', 'ver más', 'saber más', 'aquí', 'haga clic aquí', 'leggi di più', 'scopri di più',
    'clicca qui', 'qui', 'lees meer', 'meer', 'klik hier', 'läs mer', 'les mer', 'læs mere',
    'leia mais', 'saiba mais', 'clique aqui', 'czytaj więcej', 'więcej',
  ]);
  const URL_TEXT = /^(?:https?:\/\/|www\.)\S+$/i;
  // Names that say which file format, not which document.
  const FORMATS = new Set([
    'html', 'pdf', 'epub', 'mobi', 'kindle', 'txt', 'text', 'plain text', 'rtf', 'doc', 'docx', 'word', 'odt',
    'xls', 'xlsx', 'excel', 'csv', 'ods', 'ppt', 'pptx', 'powerpoint', 'odp', 'mp3', 'mp4', 'ogg', 'wav',
    'zip', 'xml', 'json',
  ]);
  const DEICTIC = /^(?:this|that|these|those) [\p{L}\p{N}]+$/u;
  // A link whose address is named after the word leads to a topic, not to a file in that
  // format: "csv" to whatsnew.html#csv or library/csv.html, "XML" to /docs/xml-support/.
  // Its fragment or last path segment (extension aside), in words, holds the name.
  const namedAfter = (link, key) => {
    let url;
    try { url = new URL(link.href); } catch { return false; }
    const decoded = (part) => { try { return decodeURIComponent(part); } catch { return part; } };
    const words = (part) => decoded(part).toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
    const wanted = words(key);
    const holds = (part) => {
      const found = words(part);
      return found.some((_, i) => wanted.every((word, j) => found[i + j] === word));
    };
    const segment = (url.pathname.split('/').filter(Boolean).pop() || '').replace(/\.[a-z0-9]{1,5}$/i, '');
    return wanted.length > 0 && (holds(url.hash.slice(1)) || holds(segment));
  };
  // A name written as code names an identifier, not a generic phrase: a call ("info()", the
  // function info), an option ("--details"), or text set wholly in code, kbd, samp or var
  // ("link" in <code>, the function or the command).
  const CALL_OR_OPTION = /^-{1,2}\p{L}|\p{L}\s*\(\s*\)$/u;
  const CODE = 'code, kbd, samp, var, tt';
  const WORD = /[\p{L}\p{N}]{2,}/u;
  const SECTION = 'article, section, aside, nav, main, header, footer, form, dialog, [role="region"], ' +
    '[role="article"], [role="main"], [role="navigation"], [role="complementary"], [role="contentinfo"], ' +
    '[role="banner"], [role="dialog"], [role="form"], [role="search"]';
  const CONTAINER = 'p, li, td, th, dd, dt, blockquote, figcaption, caption, label, legend, ' +
    '[role="paragraph"], [role="listitem"], [role="cell"], [role="gridcell"], [role="rowheader"], ' +
    '[role="columnheader"]';
  const SKIP = ['script', 'style', 'template', 'noscript'];

  // Names are computed once per link and run, for both checks (axe clears its cache after a run).
  const nameOf = (virtualNode) => {
    const names = axe._cache.get('a11y-link-names', () => new Map());
    if (!names.has(virtualNode)) {
      names.set(virtualNode, text.accessibleTextVirtual(virtualNode).replace(/\s+/g, ' ').trim());
    }
    return names.get(virtualNode);
  };
  // A name from content of more than 6 words is none of the phrases: skip computing it.
  const long = (node) => !node.hasAttribute('aria-label') && !node.hasAttribute('aria-labelledby') &&
    node.textContent.trim().split(/\s+/).length > 6;
  const keyOf = (name) =>
    name.toLowerCase().replace(/^[\s\p{P}\p{S}]+|[\s\p{P}\p{S}]+$/gu, '').replace(/\s+/g, ' ');
  // A name in angle brackets is a type or a tag in technical documentation ("<this>",
  // "<details>"), written as code is: it names that thing.
  const NOTATION = /^<[^<>\s][^<>]*>$/;
  const kindOf = (name) => {
    if (NOTATION.test(name)) return null;
    const key = keyOf(name);
    if (GENERIC.has(key)) return 'generic';
    if (URL_TEXT.test(name)) return 'address';
    if (check !== 'alone') return null;
    if (FORMATS.has(key)) return 'format';
    return DEICTIC.test(key) ? 'deictic' : null;
  };
  const setInCode = (node) => {
    if (node.hasAttribute('aria-label') || node.hasAttribute('aria-labelledby')) return false;
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    let any = false;
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      if (!t.data.trim()) continue;
      const code = t.parentElement.closest(CODE);
      if (!code || !node.contains(code)) return false;
      any = true;
    }
    return any;
  };
  const matches = function (node, virtualNode) {
    if (long(node) || !LINKS.includes(aria.getRole(virtualNode))) return false;
    const name = nameOf(virtualNode);
    if (kindOf(name) === null || CALL_OR_OPTION.test(name.trim()) || setInCode(node)) return false;
    return dom.isVisibleToScreenReaders(virtualNode);
  };

  const flows = (el) => {
    const display = getComputedStyle(el).display;
    return display === 'none' || display === 'contents' || display.startsWith('inline');
  };
  // The text of n, without scripts, undisplayed elements, and links whose text says nothing
  // (the link judged among them): what is left is what the context tells.
  const textOf = (n) => {
    if (n.nodeType === Node.TEXT_NODE) return n.data;
    if (n.nodeType !== Node.ELEMENT_NODE || SKIP.includes(n.localName)) return '';
    if (n.matches('a[href], [role="link"]') && (n === judged || GENERIC.has(keyOf(n.textContent)))) return '';
    if (getComputedStyle(n).display === 'none') return '';
    return Array.from(n.childNodes, textOf).join(' ');
  };
  const said = (s) => WORD.test(s);
  let judged = null;
  // The sentence or paragraph: the run of inline content around the link in its nearest block
  // (or paragraph, list item, cell ...), between the block's block-level children.
  const paragraph = (link) => {
    let block = link.parentElement;
    while (block && !block.matches(CONTAINER) && flows(block)) block = block.parentElement;
    if (!block) return '';
    let top = link;
    while (top.parentElement !== block) top = top.parentElement;
    const kids = Array.from(block.childNodes);
    const inline = (n) => n.nodeType !== Node.ELEMENT_NODE || flows(n);
    let start = kids.indexOf(top);
    let end = start;
    while (start > 0 && inline(kids[start - 1])) start -= 1;
    while (end < kids.length - 1 && inline(kids[end + 1])) end += 1;
    return kids.slice(start, end + 1).map(textOf).join('');
  };
  // The cell, its headers and (as screen readers read it too) its row.
  const cellHeaders = (link) => {
    const cell = link.closest('td, th');
    if (!cell || !cell.closest('table')) return '';
    const row = cell.closest('tr');
    let headers = '';
    try {
      headers = table.getHeaders(cell).map(textOf).join(' ');
    } catch {
      headers = '';
    }
    return headers + ' ' + (row ? textOf(row) : textOf(cell));
  };
  const list = (link) => {
    const owner = link.closest('ul, ol, dl, menu, [role="list"], [role="menu"], [role="menubar"]');
    return owner ? textOf(owner) : '';
  };
  // Technique H80: the heading before the link, within the link's own section; or the name
  // the section is given, which screen readers announce on entering it.
  const heading = (link) => {
    const section = link.parentElement ? link.parentElement.closest(SECTION) : null;
    if (section && said(aria.arialabelText(section) + ' ' + aria.arialabelledbyText(section))) return true;
    const root = link.getRootNode();
    const scope = section || (root === link.ownerDocument ? root.body : root);
    if (!scope) return false;
    return Array.from(scope.querySelectorAll('h1, h2, h3, h4, h5, h6, [role="heading"]')).some(
      (h) => (Boolean(h.compareDocumentPosition(link) & Node.DOCUMENT_POSITION_FOLLOWING) || h.contains(link)) &&
        dom.isVisibleToScreenReaders(h) && said(textOf(h)),
    );
  };
  const described = (link, name) => {
    const ids = (link.getAttribute('aria-describedby') || '').split(/\s+/).filter(Boolean);
    const root = link.getRootNode();
    const description = ids.map((id) => root.getElementById ? root.getElementById(id) : null)
      .filter(Boolean).map(textOf).join(' ');
    const title = (link.getAttribute('title') || '').trim();
    return said(description) || (said(title) && keyOf(title) !== keyOf(name));
  };
  // Where the context that says more was found, or null. A link in a shadow tree also has
  // the context of the element that hosts the tree.
  const contextOf = (link, name) => {
    judged = link;
    if (described(link, name)) return 'its description or title';
    if (said(paragraph(link))) return 'its sentence or paragraph';
    if (said(list(link))) return 'its list';
    if (said(cellHeaders(link))) return 'its table cell, row and headers';
    if (heading(link)) return 'the heading before it or the name of its section';
    const root = link.getRootNode();
    return root.host ? contextOf(root.host, name) : null;
  };

  const evaluate = function (node, options, virtualNode) {
    const name = nameOf(virtualNode);
    const kind = kindOf(name);
    if (!kind) return true;
    const shown = name.length > 80 ? name.slice(0, 77) + '...' : name;
    if (check === 'alone') {
      const why = {
        address: 'is a web address; check that it tells where the link leads',
        deictic: 'points at something its context names; check that it tells where the link leads without that context',
      };
      if (kind === 'format' && namedAfter(node, keyOf(name))) return true;
      this.data({ name: shown, why: why[kind] || '' });
      return kind === 'generic' || kind === 'format' ? false : undefined;
    }
    const context = contextOf(node, name);
    if (kind === 'address') {
      if (context) return true;
      this.data({ name: shown, why: 'is a web address with no text around it; check that it tells where the link leads' });
      return undefined;
    }
    if (!context) {
      this.data({ name: shown });
      return false;
    }
    this.data({ name: shown, why: `says nothing by itself; check that ${context} tells where the link leads` });
    return undefined;
  };
  return part === 'matches' ? matches : evaluate;
})
