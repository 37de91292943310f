// Function expression (selectors), called once per frame in the frame's axe world: returns,
// for each axe selector of that frame (a CSS selector, or a list of them through open shadow
// roots), the element's churn-proof identity {tag, role, name, label, text, attrs,
// landmarks, documentUrl}, or null when no element matches. Selectors, classes and
// positions are read only to find the element, never returned in the identity. Beside it,
// `component` describes the element's structure and style for grouping findings into
// problems (audit.problems.signature): tag, classes, role, ARIA attribute names, the
// ancestors' tags, classes and roles, and a few computed style values; never a text, an
// href or a position among siblings.
(function (selectors) {
  const NAME_LIMIT = 120;
  const TEXT_LIMIT = 80;
  const STABLE_ATTRS = ['id', 'name', 'href', 'src', 'data-testid', 'type', 'for', 'aria-label'];
  const LANDMARKS = new Set([
    'banner', 'complementary', 'contentinfo', 'form', 'main', 'navigation', 'region', 'search',
  ]);
  const NAMED_BY_CONTENT = new Set([
    'button', 'cell', 'checkbox', 'columnheader', 'gridcell', 'heading', 'link', 'menuitem',
    'menuitemcheckbox', 'menuitemradio', 'option', 'radio', 'row', 'rowheader', 'switch', 'tab',
    'tooltip', 'treeitem',
  ]);
  const SECTIONING = 'article, aside, main, nav, section';
  const INPUT_ROLES = {
    button: 'button', submit: 'button', reset: 'button', image: 'button', checkbox: 'checkbox',
    radio: 'radio', range: 'slider', number: 'spinbutton', search: 'searchbox',
  };

  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const clip = (s, n) => (s.length > n ? s.slice(0, n) : s);

  function find(selector) {
    const hops = Array.isArray(selector) ? selector : [selector];
    let root = document;
    let el = null;
    for (const hop of hops) {
      if (!root) return null;
      el = root.querySelector(hop);
      if (!el) return null;
      root = el.shadowRoot;
    }
    return el;
  }

  function byIds(el, attr) {
    const ids = norm(el.getAttribute(attr)).split(' ').filter(Boolean);
    const root = el.getRootNode();
    return ids.map((id) => root.getElementById ? root.getElementById(id) : null).filter(Boolean);
  }

  function contentText(el) {
    // Text as a name from content reads it: text nodes, and images by their alternative text.
    let out = '';
    for (const node of el.childNodes) {
      if (node.nodeType === Node.TEXT_NODE) out += node.data;
      else if (node.nodeType === Node.ELEMENT_NODE) {
        const tag = node.localName;
        if (tag === 'script' || tag === 'style' || tag === 'template') continue;
        if (node.hasAttribute('aria-label')) out += ' ' + node.getAttribute('aria-label') + ' ';
        else if (tag === 'img' || tag === 'area') out += ' ' + (node.getAttribute('alt') || '') + ' ';
        else out += ' ' + contentText(node) + ' ';
      }
    }
    return out;
  }

  function ownText(el) {
    let out = '';
    for (const node of el.childNodes) if (node.nodeType === Node.TEXT_NODE) out += node.data;
    return clip(norm(out), TEXT_LIMIT);
  }

  function role(el) {
    const explicit = norm(el.getAttribute('role')).split(' ')[0];
    if (explicit) return explicit.toLowerCase();
    const tag = el.localName;
    switch (tag) {
      case 'a': case 'area': return el.hasAttribute('href') ? 'link' : '';
      case 'button': return 'button';
      case 'input': {
        const type = (el.getAttribute('type') || 'text').toLowerCase();
        if (INPUT_ROLES[type]) return INPUT_ROLES[type];
        if (type === 'hidden') return '';
        return el.hasAttribute('list') ? 'combobox' : 'textbox';
      }
      case 'select': return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
      case 'textarea': return 'textbox';
      case 'img': return el.getAttribute('alt') === '' ? 'presentation' : 'img';
      case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': return 'heading';
      case 'nav': return 'navigation';
      case 'main': return 'main';
      case 'aside': return 'complementary';
      case 'header': return el.parentElement && el.parentElement.closest(SECTIONING) ? '' : 'banner';
      case 'footer': return el.parentElement && el.parentElement.closest(SECTIONING) ? '' : 'contentinfo';
      case 'form': return 'form';
      case 'search': return 'search';
      case 'section': return 'region';
      case 'ul': case 'ol': case 'menu': return 'list';
      case 'li': return 'listitem';
      case 'table': return 'table';
      case 'tr': return 'row';
      case 'td': return 'cell';
      case 'th': return 'columnheader';
      case 'dialog': return 'dialog';
      case 'p': return 'paragraph';
      case 'html': return 'document';
      case 'iframe': case 'frame': return 'iframe';
      default: return '';
    }
  }

  function labelText(el) {
    const labels = el.labels ? Array.from(el.labels) : [];
    return clip(norm(labels.map((l) => contentText(l)).join(' ')), NAME_LIMIT);
  }

  // The author-given name only (labelledby, aria-label): what names a landmark.
  function authorName(el) {
    const referenced = byIds(el, 'aria-labelledby');
    if (referenced.length) return norm(referenced.map((r) => contentText(r)).join(' '));
    return norm(el.getAttribute('aria-label'));
  }

  function accessibleName(el, elRole) {
    const given = authorName(el);
    if (given) return given;
    const tag = el.localName;
    if (tag === 'img' || tag === 'area' || (tag === 'input' && el.type === 'image')) {
      const alt = el.getAttribute('alt');
      if (alt) return norm(alt);
    }
    const label = labelText(el);
    if (label) return label;
    if (tag === 'fieldset' || tag === 'figure' || tag === 'table') {
      const caption = el.querySelector(':scope > legend, :scope > figcaption, :scope > caption');
      if (caption) return norm(contentText(caption));
    }
    if (tag === 'input' && ['button', 'submit', 'reset'].includes(el.type)) return norm(el.value);
    if (NAMED_BY_CONTENT.has(elRole)) {
      const text = norm(contentText(el));
      if (text) return text;
    }
    return norm(el.getAttribute('title') || el.getAttribute('placeholder'));
  }

  function parentAcrossShadow(el) {
    if (el.parentElement) return el.parentElement;
    const root = el.getRootNode();
    return root && root.host ? root.host : null;
  }

  function landmarks(el) {
    const chain = [];
    for (let node = parentAcrossShadow(el); node; node = parentAcrossShadow(node)) {
      const r = role(node);
      if (!LANDMARKS.has(r)) continue;
      const name = clip(authorName(node), NAME_LIMIT);
      // An unnamed form or section is no landmark.
      if ((r === 'region' || r === 'form') && !name && !node.hasAttribute('role')) continue;
      chain.unshift([r, name]);
    }
    return chain;
  }

  const PATH_LIMIT = 12;
  const CLASS_LIMIT = 8;

  function classes(el) {
    return Array.from(el.classList || []).slice(0, CLASS_LIMIT);
  }

  function step(el) {
    return { tag: el.localName, classes: classes(el), role: norm(el.getAttribute('role')) };
  }

  // The first ancestor colour that is not transparent: what the text is read against.
  // Remembered for every node walked through, so siblings share one walk up the tree.
  const backdrops = new Map();
  function backdrop(el) {
    const walked = [];
    let found = '';
    for (let node = el; node && node.nodeType === Node.ELEMENT_NODE; node = parentAcrossShadow(node)) {
      if (backdrops.has(node)) {
        found = backdrops.get(node);
        break;
      }
      walked.push(node);
      const bg = getComputedStyle(node).backgroundColor;
      if (bg && bg !== 'transparent' && bg !== 'rgba(0, 0, 0, 0)') {
        found = bg;
        break;
      }
    }
    for (const node of walked) backdrops.set(node, found);
    return found;
  }

  function style(el) {
    const cs = getComputedStyle(el);
    const parent = parentAcrossShadow(el);
    return {
      color: cs.color,
      background: backdrop(el),
      fontSize: cs.fontSize,
      fontWeight: cs.fontWeight,
      lineHeight: cs.lineHeight,
      display: cs.display,
      padding: cs.padding,
      textDecoration: cs.textDecorationLine,
      whiteSpace: cs.whiteSpace,
      parentColor: parent ? getComputedStyle(parent).color : '',
    };
  }

  function component(el) {
    const path = [];
    for (let node = parentAcrossShadow(el); node && path.length < PATH_LIMIT; node = parentAcrossShadow(node)) {
      if (node.localName === 'body' || node.localName === 'html') break;
      path.push(step(node));
    }
    const aria = Array.from(el.attributes).map((a) => a.name).filter((n) => n.startsWith('aria-'));
    return {
      ...step(el),
      computedRole: role(el),
      type: el.localName === 'input' || el.localName === 'button' ? (el.getAttribute('type') || '') : '',
      aria: aria.sort(),
      path,
      style: style(el),
    };
  }

  function identity(el) {
    const elRole = role(el);
    const attrs = {};
    for (const name of STABLE_ATTRS) {
      const value = el.getAttribute(name);
      if (value !== null && value !== '') attrs[name] = clip(value, 300);
    }
    return {
      tag: el.localName,
      role: elRole,
      name: clip(accessibleName(el, elRole), NAME_LIMIT),
      label: labelText(el),
      text: ownText(el),
      attrs,
      landmarks: landmarks(el),
      documentUrl: document.URL,
      component: component(el),
    };
  }

  return selectors.map((selector) => {
    try {
      const el = find(selector);
      return el ? identity(el) : null;
    } catch {
      return null;  // a selector this document cannot parse, or a node gone meanwhile
    }
  });
})
