/* global a11yProbe */
// Function expression (items, limits): each image of js/image_name_candidates.js drawn twice for reading its text: an item is {target, kind, drawWidth, drawHeight, background} plus {data (base64 of its file), type} for an img of another origin; returns per item {flat (the share of its pixels in its commonest colour), grid (its ink: a string of gridWidth x gridHeight '0'/'1' cells, row by row, '1' where a pixel differs from that colour), gridWidth, gridHeight, pad, png (drawn edge to edge, base64, only when flat is limits.flat or more), padded (drawn inside a margin of pad px of that colour, only when ink touches an edge: text there reads better so; else null)}; or null when it cannot be drawn (it does not decode within limits.loadMs, or its pixels cannot be read).
// The element's own pixels are read, not a screenshot: nothing scrolls, text the page puts
// over the image is not the image's. An inline svg is drawn from a copy of its markup (styles
// the page sets on its shapes are not applied; its own attributes are).
async function (items, limits) {
  const decoded = (src) => a11yProbe.decodedImage(src, limits.loadMs);
  const element = (target) => a11yProbe.byTarget(target);
  const svgImage = async (el, width, height) => {
    const copy = el.cloneNode(true);
    copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
    copy.setAttribute('width', String(width));
    copy.setAttribute('height', String(height));
    if (!copy.hasAttribute('color')) copy.setAttribute('color', getComputedStyle(el).color);
    const url = URL.createObjectURL(new Blob([new XMLSerializer().serializeToString(copy)], {type: 'image/svg+xml'}));
    try {
      return await decoded(url);
    } finally {
      URL.revokeObjectURL(url);
    }
  };
  const source = async (item) => {
    if (item.data) {
      const bytes = Uint8Array.from(atob(item.data), (c) => c.charCodeAt(0));
      const url = URL.createObjectURL(new Blob([bytes], {type: item.type}));
      try {
        return await decoded(url);
      } finally {
        URL.revokeObjectURL(url);
      }
    }
    const el = element(item.target);
    if (!el) return null;
    if (el.localName === 'svg') return svgImage(el, item.drawWidth, item.drawHeight);
    if (el.localName === 'img') return el.complete ? el : decoded(el.currentSrc || el.src);
    return el; // a canvas
  };
  const canvasOf = (width, height, background) => {
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext('2d', {willReadFrequently: true});
    context.fillStyle = background;
    context.fillRect(0, 0, width, height);
    return {canvas, context};
  };
  // The commonest colour (4 bits a channel) and its share, over at most about 20,000 samples;
  // then the ink grid: cells where a sampled pixel is far from that colour.
  const measure = (context, width, height) => {
    const data = context.getImageData(0, 0, width, height).data;
    const step = Math.max(1, Math.floor((width * height) / 20000));
    const counts = new Map();
    let samples = 0;
    let most = 0;
    let base = [255, 255, 255];
    for (let i = 0; i < width * height; i += step) {
      const o = i * 4;
      const key = ((data[o] >> 4) << 8) | ((data[o + 1] >> 4) << 4) | (data[o + 2] >> 4);
      const n = (counts.get(key) || 0) + 1;
      counts.set(key, n);
      if (n > most) {
        most = n;
        base = [data[o], data[o + 1], data[o + 2]];
      }
      samples += 1;
    }
    const gridWidth = Math.max(1, Math.min(limits.grid, width));
    const gridHeight = Math.max(1, Math.min(limits.grid, height));
    const cells = new Array(gridWidth * gridHeight).fill('0');
    const stride = Math.max(1, Math.floor(Math.sqrt((width * height) / 40000)));
    for (let y = 0; y < height; y += stride) {
      for (let x = 0; x < width; x += stride) {
        const o = (y * width + x) * 4;
        const far = Math.max(Math.abs(data[o] - base[0]), Math.abs(data[o + 1] - base[1]), Math.abs(data[o + 2] - base[2]));
        if (far > limits.ink) {
          cells[Math.floor((y * gridHeight) / height) * gridWidth + Math.floor((x * gridWidth) / width)] = '1';
        }
      }
    }
    return {flat: samples ? most / samples : 0, grid: cells.join(''), gridWidth, gridHeight, base: `rgb(${base.join(', ')})`};
  };
  const draw = async (item) => {
    try {
      const img = await source(item);
      if (!img) return null;
      const width = item.drawWidth;
      const height = item.drawHeight;
      const flush = canvasOf(width, height, item.background);
      flush.context.drawImage(img, 0, 0, width, height);
      const measured = measure(flush.context, width, height); // throws for pixels of another origin
      if (measured.flat < limits.flat) return {...measured, pad: 0, png: null, padded: null};
      const png = flush.canvas.toDataURL('image/png').split(',')[1];
      // Ink in the outermost cells: text may touch an edge, where it reads better with a margin.
      const {grid, gridWidth: gw, gridHeight: gh} = measured;
      let edge = false;
      for (let i = 0; i < grid.length && !edge; i++) {
        const x = i % gw;
        const y = Math.floor(i / gw);
        edge = grid[i] === '1' && (x === 0 || y === 0 || x === gw - 1 || y === gh - 1);
      }
      if (!edge) return {...measured, pad: 0, png, padded: null};
      const pad = Math.round(Math.max(width, height) * limits.padShare) + limits.padPx;
      const padded = canvasOf(width + 2 * pad, height + 2 * pad, measured.base);
      padded.context.drawImage(flush.canvas, pad, pad);
      return {...measured, pad, png, padded: padded.canvas.toDataURL('image/png').split(',')[1]};
    } catch {
      return null;
    }
  };
  return Promise.all(items.map(draw));
}
