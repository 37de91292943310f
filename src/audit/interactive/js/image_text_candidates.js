/* global a11yProbe */
// Function expression (limits): the images whose pixels may hold text to read: img elements (decorative ones too), image buttons, role=img elements with no text of their own painted by an image, and empty elements painted by a CSS background image, rendered, visible and at least limits.minWidth x limits.minHeight CSS px; up to limits.images of them, likeliest to hold text first, each {target, html, name, kind, logo, figure, context (the text beside it), src, local, background, width, height}: local when the page may read its pixels (same origin, data: or blob:), width and height the pixels to draw it at (its displayed size, enlarged when small, shrunk when large) for js/image_pixels.js.
function (limits) {
  const words = (text) => (text.match(/[\p{L}\p{N}]+/gu) || []).length;
  const nameOf = (el) => {
    const labelledby = (el.getAttribute('aria-labelledby') || '').trim();
    if (labelledby) {
      return labelledby.split(/\s+/).map((id) => {
        const ref = document.getElementById(id);
        return ref ? ref.textContent : '';
      }).join(' ').replace(/\s+/g, ' ').trim();
    }
    return (el.getAttribute('aria-label') || el.getAttribute('alt') || el.getAttribute('title') || '').trim();
  };
  // A link to the site's home page: where a site's logo sits.
  const home = (el) => {
    const link = el.closest('a[href]');
    if (!link) return false;
    try {
      const url = new URL(link.href, document.baseURI);
      return url.origin === location.origin && /^\/(index\.\w+)?$/.test(url.pathname) && !url.hash;
    } catch {
      return false;
    }
  };
  const LOGO = /(logo|wordmark|brand|emblem)/i;
  // Pictures whose text is part of other visual content (Understanding 1.4.5): never failed.
  const FIGURE = /\b(screen ?shots?|screen captures?|charts?|graphs?|diagrams?|maps?|plots?|infographics?|photo|photograph|illustrations?|comics?|posters?|covers?|flowcharts?|tables?|rendered|render|preview|sign|signs|signage|packaging)\b/i;
  // The image file of a role=img element: its own background, or its only img.
  const sourceOf = (el) => {
    if (el.localName === 'img') return el.currentSrc || el.src || '';
    if (el.localName === 'input') return el.src || '';
    const images = el.querySelectorAll('img');
    if (images.length === 1) return images[0].currentSrc || images[0].src || '';
    const match = /url\(\s*(['"]?)(.*?)\1\s*\)/.exec(getComputedStyle(el).backgroundImage || '');
    return match ? new URL(match[2], document.baseURI).href : '';
  };
  // The colour the image is drawn on: the first opaque background behind it.
  const backgroundOf = (el) => {
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
      const color = getComputedStyle(node).backgroundColor;
      const alpha = /rgba\([^)]*,\s*([\d.]+)\)/.exec(color);
      if (color && color !== 'transparent' && (!alpha || Number(alpha[1]) >= 0.9)) return color;
    }
    return 'rgb(255, 255, 255)';
  };

  // The text next to an image (its parent's, else its grandparent's), at most 300 characters.
  const besideText = (el) => {
    for (let node = el.parentElement, level = 0; node && level < 2; node = node.parentElement, level++) {
      const text = (node.innerText || '').replace(/\s+/g, ' ').trim();
      if (text) return text.slice(0, 300);
    }
    return '';
  };

  const found = [];
  let scanned = 0;
  for (const el of document.querySelectorAll('img, input[type="image" i], [role~="img"]')) {
    if (++scanned > limits.scan) break;
    const tag = el.localName;
    const role = (el.getAttribute('role') || '').trim().split(/\s+/)[0];
    if (el.closest('svg') || role === 'presentation' || role === 'none') continue;
    // Decorative (alt="") images are read too: text a sighted user sees in an image is an image
    // of text whether or not assistive technologies are told about it.
    const decorative = tag === 'img' && el.getAttribute('alt') === '' && !el.hasAttribute('aria-label')
        && !el.hasAttribute('aria-labelledby');
    if (el.closest('[aria-hidden="true"]')) continue;
    if (tag !== 'img' && tag !== 'input' && el.textContent.trim()) continue; // its text is real text
    if (tag === 'img' && (!el.complete || !el.naturalWidth)) continue;
    if (el.checkVisibility && !el.checkVisibility({opacityProperty: true, visibilityProperty: true})) continue;
    const rect = el.getBoundingClientRect();
    if (rect.width < limits.minWidth || rect.height < limits.minHeight) continue;
    const src = sourceOf(el);
    if (!src || !/^(https?|data|blob):/i.test(src)) continue;
    const name = nameOf(el);
    const file = src.startsWith('data:') ? src.slice(0, 30) : src.split(/[?#]/)[0].split('/').pop();
    const hints = [name, file, el.id, typeof el.className === 'string' ? el.className : ''].join(' ');
    const parentClass = el.parentElement && typeof el.parentElement.className === 'string' ? el.parentElement.className : '';
    const banner = el.closest('header, [role="banner"]') && !el.closest('main, article, [role="main"]');
    const logo = LOGO.test(hints) || LOGO.test(parentClass) || home(el) || Boolean(banner && el.closest('a[href]'));
    let score = tag === 'input' ? 4 : 0;
    if (words(name) >= 3) score += 2;
    if (rect.width / rect.height >= 2.5) score += 1;
    if (/\.(png|gif|svg|webp)$/i.test(file) || /^data:image\/(png|gif|svg)/i.test(src)) score += 1;
    found.push({
      el, src, name: name.slice(0, 300), logo, figure: FIGURE.test(name), score, order: found.length,
      kind: tag === 'input' ? 'image button' : decorative ? 'decorative image' : tag === 'img' ? 'image' : 'role=img element',
      width: rect.width, height: rect.height,
    });
  }
  // CSS background images of elements with no content of their own (an empty box painted by
  // one image file, its whole file shown: a sprite, drawn at an offset, is left out).
  let leaves = 0;
  for (const el of document.body ? document.body.querySelectorAll('*') : []) {
    if (leaves > limits.scan * 4) break;
    if (el.firstElementChild || el.textContent.trim() || el.matches('img, input, svg *, [role~="img"]')) continue;
    leaves += 1;
    const style = getComputedStyle(el);
    const match = /^url\(\s*(['"]?)(.*?)\1\s*\)$/.exec(style.backgroundImage || '');
    if (!match || !/^(0|\d+(\.\d+)?%|0px)( (0|\d+(\.\d+)?%|0px))?$/.test(style.backgroundPosition.trim())) continue;
    if (el.closest('[aria-hidden="true"]')) continue;
    if (el.checkVisibility && !el.checkVisibility({opacityProperty: true, visibilityProperty: true})) continue;
    const rect = el.getBoundingClientRect();
    if (rect.width < limits.minWidth || rect.height < limits.minHeight) continue;
    let src;
    try {
      src = new URL(match[2], document.baseURI).href;
    } catch {
      continue;
    }
    if (!/^(https?|data|blob):/i.test(src)) continue;
    const file = src.startsWith('data:') ? src.slice(0, 30) : src.split(/[?#]/)[0].split('/').pop();
    const hints = [file, el.id, typeof el.className === 'string' ? el.className : ''].join(' ');
    found.push({
      el, src, name: '', logo: LOGO.test(hints) || home(el), figure: false, score: rect.width / rect.height >= 2.5 ? 1 : 0,
      order: found.length, kind: 'background image', width: rect.width, height: rect.height,
    });
  }
  found.sort((a, b) => b.score - a.score || a.order - b.order);

  return found.slice(0, limits.images).map((image) => {
    // Small images enlarged (text about 20 px high or more reads best), large ones shrunk.
    let scale = Math.min(limits.maxScale, Math.max(1, limits.targetHeight / image.height));
    scale = Math.min(scale, limits.maxSide / Math.max(image.width, image.height));
    let local = image.src.startsWith('data:') || image.src.startsWith('blob:');
    try {
      local = local || new URL(image.src).origin === location.origin;
    } catch {
      local = false;
    }
    return {
      ...a11yProbe.describe(image.el), name: image.name, kind: image.kind, logo: image.logo, figure: image.figure,
      context: besideText(image.el),
      src: image.src, local, background: backgroundOf(image.el),
      width: Math.max(1, Math.round(image.width * scale)), height: Math.max(1, Math.round(image.height * scale)),
    };
  });
}
