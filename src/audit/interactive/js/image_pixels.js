/* global a11yProbe */
// Function expression (items, limits): each image drawn for reading its text: an item is {target, src, width, height, background, always} for an image of this origin, or {data (base64 of its file), type, width, height, background, always} for another origin's; returns per item {flat (the share of its pixels in its commonest colour), png (base64, only when flat is limits.flat or more, or the item says always)}, or null when it cannot be drawn (it does not decode within limits.loadMs, or its pixels cannot be read).
// The image's own pixels are read, not a screenshot of the page: text a page draws over an
// image is real text, and nothing needs to scroll into view. Drawn on the colour behind it
// (transparent images show their text as on the page); a file from another origin is drawn
// from a blob: URL, this document's own, so that its canvas can be read.
async function (items, limits) {
  const decoded = (src) => a11yProbe.decodedImage(src, limits.loadMs);
  const element = (target) => a11yProbe.byTarget(target);
  // Pixels in the commonest colour (4 bits a channel), over at most about 20,000 samples.
  const flatness = (context, width, height) => {
    const data = context.getImageData(0, 0, width, height).data;
    const step = Math.max(1, Math.floor((width * height) / 20000));
    const counts = new Map();
    let samples = 0;
    let most = 0;
    for (let i = 0; i < width * height; i += step) {
      const o = i * 4;
      const key = ((data[o] >> 4) << 8) | ((data[o + 1] >> 4) << 4) | (data[o + 2] >> 4);
      const n = (counts.get(key) || 0) + 1;
      counts.set(key, n);
      if (n > most) most = n;
      samples += 1;
    }
    return samples ? most / samples : 0;
  };
  const draw = async (item) => {
    let url = null;
    try {
      let img;
      if (item.data) {
        const bytes = Uint8Array.from(atob(item.data), (c) => c.charCodeAt(0));
        url = URL.createObjectURL(new Blob([bytes], {type: item.type}));
        img = await decoded(url);
      } else {
        const el = element(item.target);
        img = el && el.localName === 'img' && el.complete ? el : await decoded(item.src);
      }
      if (!img) return null;
      const canvas = document.createElement('canvas');
      canvas.width = item.width;
      canvas.height = item.height;
      const context = canvas.getContext('2d', {willReadFrequently: true});
      context.fillStyle = item.background;
      context.fillRect(0, 0, item.width, item.height);
      context.drawImage(img, 0, 0, item.width, item.height);
      const flat = flatness(context, item.width, item.height); // throws for pixels of another origin
      const wanted = item.always || flat >= limits.flat;
      return {flat, png: wanted ? canvas.toDataURL('image/png').split(',')[1] : null};
    } catch {
      return null;
    } finally {
      if (url) URL.revokeObjectURL(url);
    }
  };
  return Promise.all(items.map(draw));
}
