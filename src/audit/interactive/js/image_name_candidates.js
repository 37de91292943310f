/* global a11yProbe */
// Function expression (limits): the images whose text an OCR reading may show to disagree with what assistive technologies get: visible img (loaded), canvas and outermost svg elements, at least limits.minWidth x limits.minHeight CSS px, not part of a control or link and not inside an element named with aria-label/aria-labelledby; each either 'named' (exposed, with a short accessible name that claims something: a logo of X, or an acronym) or 'hidden' (left out of the accessibility tree: alt="", role none/presentation, aria-hidden, an svg or canvas with no name and no role or content); returns {images: [{target, html, exposure, kind, name, also, width, height, drawWidth, drawHeight, src, local, background}], pageText} (pageText, the text the page gives assistive technologies, only when a hidden image is among them), at most limits.images images, named ones first.
function (limits) {
  const clean = (text) => (text || '').replace(/\s+/g, ' ').trim();
  const words = (text) => (text.match(/[\p{L}\p{N}]+/gu) || []);
  const byIds = (ids) => clean(ids.split(/\s+/).map((id) => {
    const ref = id && document.getElementById(id);
    return ref ? ref.textContent : '';
  }).join(' '));
  const roleOf = (el) => (el.getAttribute('role') || '').trim().toLowerCase().split(/\s+/)[0];
  const svgTitle = (el) => {
    const title = [...el.children].find((child) => child.localName === 'title');
    return title ? clean(title.textContent) : '';
  };
  // The accessible name as far as the markup gives it (the sources the name algorithm reads
  // for these elements, in its order).
  const nameOf = (el) => {
    const labelledby = (el.getAttribute('aria-labelledby') || '').trim();
    if (labelledby) {
      const text = byIds(labelledby);
      if (text) return text;
    }
    const label = clean(el.getAttribute('aria-label'));
    if (label) return label;
    if (el.localName === 'img' && el.hasAttribute('alt')) return clean(el.getAttribute('alt'));
    if (el.localName === 'svg' && svgTitle(el)) return svgTitle(el);
    return clean(el.getAttribute('title'));
  };
  // Other text assistive technologies may give with the image (a description, a title).
  const alsoOf = (el) => clean([
    el.getAttribute('title'),
    byIds((el.getAttribute('aria-describedby') || '').trim()),
    el.getAttribute('aria-description'),
    el.localName === 'svg' ? svgTitle(el) : '',
    el.localName === 'svg' ? clean([...el.children].filter((c) => c.localName === 'desc').map((c) => c.textContent).join(' ')) : '',
  ].join(' '));
  const GLOBAL = ['aria-label', 'aria-labelledby', 'aria-describedby', 'aria-description', 'aria-live', 'aria-owns', 'aria-controls', 'aria-details'];
  // 'hidden' (not in the accessibility tree), 'named', or null (exposed without a name, or
  // exposed through its content: another rule's matter).
  const exposureOf = (el) => {
    if (el.closest('[aria-hidden="true" i]')) return 'hidden';
    const role = roleOf(el);
    const globals = GLOBAL.some((name) => clean(el.getAttribute(name)) !== '');
    if ((role === 'none' || role === 'presentation') && !globals && el.tabIndex < 0) return 'hidden';
    const name = nameOf(el);
    if (el.localName === 'img') {
      if (el.getAttribute('alt') === '' && !globals && !role) return 'hidden';
      return name ? 'named' : null;
    }
    if (el.localName === 'canvas') {
      if (name) return 'named';
      return clean(el.textContent) || el.children.length || role ? null : 'hidden';
    }
    if (name) return 'named';
    return role || el.querySelector('text, foreignObject') ? null : 'hidden';
  };
  // Part of a control, a link or a label (the control's name is what counts), or named by an
  // ancestor's aria-label/aria-labelledby, which replaces the image's own name.
  const FUNCTIONAL = 'a[href], button, label, summary, select, textarea, input, [role~="button" i], [role~="link" i], '
    + '[role~="menuitem" i], [role~="tab" i], [role~="option" i], [role~="checkbox" i], [role~="radio" i], [role~="switch" i]';
  const contained = (el) => {
    if (el.tabIndex >= 0) return true;
    if (el.closest(FUNCTIONAL)) return true;
    for (let node = el.parentElement; node; node = node.parentElement) {
      if (clean(node.getAttribute('aria-label')) || clean(node.getAttribute('aria-labelledby'))) return true;
    }
    return false;
  };
  // What an exposed image's name claims about the image, which its picture can contradict: it
  // is the logo of something named, or it names an acronym.
  const LOGO = /\b(logo|logotype|wordmark)\b/i;
  const ACRONYM = /^(?=(?:[^A-Z]*[A-Z]){2})[A-Z][A-Z0-9&]{1,7}$/;
  const claims = (name) => {
    const all = words(name);
    if (!all.length || all.length > limits.nameWords) return false;
    const shouting = all.filter((w) => w.length >= 3).length >= 2 && name === name.toUpperCase();
    const acronym = !shouting && all.some((w) => ACRONYM.test(w));
    const logo = LOGO.test(name) && all.some((w) => !LOGO.test(w));
    return acronym || logo;
  };
  const visible = (el, rect) => {
    if (el.checkVisibility && !el.checkVisibility({opacityProperty: true, visibilityProperty: true})) return false;
    // Not moved off the page (a sighted user would not see it either).
    const root = document.documentElement;
    return rect.right + window.scrollX > 0 && rect.bottom + window.scrollY > 0
      && rect.left + window.scrollX < Math.max(root.scrollWidth, window.innerWidth);
  };
  const backgroundOf = (el) => {
    for (let node = el.parentElement; node && node.nodeType === 1; node = node.parentElement) {
      const color = getComputedStyle(node).backgroundColor;
      const alpha = /rgba\([^)]*,\s*([\d.]+)\)/.exec(color);
      if (color && color !== 'transparent' && (!alpha || Number(alpha[1]) >= 0.9)) return color;
    }
    return 'rgb(255, 255, 255)';
  };

  const found = [];
  let scanned = 0;
  for (const el of document.querySelectorAll('img, canvas, svg')) {
    if (++scanned > limits.scan) break;
    if (el.localName === 'svg' && el.parentElement && el.parentElement.closest('svg')) continue;
    if (el.localName === 'img' && (!el.complete || !el.naturalWidth)) continue;
    const rect = el.getBoundingClientRect();
    if (rect.width < limits.minWidth || rect.height < limits.minHeight || !visible(el, rect)) continue;
    const exposure = exposureOf(el);
    if (!exposure || contained(el)) continue;
    const name = exposure === 'named' ? nameOf(el) : '';
    if (exposure === 'named' && !claims(name)) continue;
    let src = '';
    let local = true;
    if (el.localName === 'img') {
      src = el.currentSrc || el.src || '';
      if (!/^(https?|data|blob):/i.test(src)) continue;
      try {
        local = /^(data|blob):/i.test(src) || new URL(src).origin === location.origin;
      } catch {
        continue;
      }
    }
    let scale = Math.min(limits.maxScale, Math.max(1, limits.targetHeight / rect.height));
    scale = Math.min(scale, limits.maxSide / Math.max(rect.width, rect.height));
    found.push({
      el, ...a11yProbe.describe(el), exposure, kind: el.localName, name: name.slice(0, 300), also: alsoOf(el).slice(0, 300),
      width: rect.width, height: rect.height,
      drawWidth: Math.max(1, Math.round(rect.width * scale)), drawHeight: Math.max(1, Math.round(rect.height * scale)),
      src, local, background: backgroundOf(el),
    });
  }
  // Named images first (few: their names must claim something), then hidden ones.
  found.sort((a, b) => (a.exposure === b.exposure ? 0 : a.exposure === 'named' ? -1 : 1));
  found.splice(limits.images);
  let pageText = '';
  if (found.some((image) => image.exposure === 'hidden')) {
    // Text nodes (not of scripts, styles or templates) and the attributes that give text.
    const parts = [document.title];
    const SKIP = new Set(['script', 'style', 'noscript', 'template']);
    const walker = document.createTreeWalker(document.body || document.documentElement, NodeFilter.SHOW_TEXT, {
      acceptNode: (node) => (node.parentElement && SKIP.has(node.parentElement.localName) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
    });
    let length = 0;
    for (let node = walker.nextNode(); node && length < limits.textChars; node = walker.nextNode()) {
      const text = node.data.trim();
      if (text) {
        parts.push(text);
        length += text.length;
      }
    }
    // A hidden image's own alternative is what assistive technologies do not get.
    const hiddenImages = new Set(found.filter((image) => image.exposure === 'hidden').map((image) => image.el));
    for (const el of document.querySelectorAll('[alt], [aria-label], [title], [aria-description], input[value]')) {
      if (length >= limits.textChars) break;
      for (const attr of ['alt', 'aria-label', 'title', 'aria-description', 'value']) {
        if (hiddenImages.has(el) && attr !== 'title') continue;
        const text = clean(el.getAttribute(attr));
        if (text) {
          parts.push(text);
          length += text.length;
        }
      }
    }
    pageText = parts.join(' \n ').slice(0, limits.textChars);
  }
  return {
    images: found.map((image) => {
      const out = Object.assign({}, image);
      delete out.el;
      return out;
    }),
    pageText,
  };
}
