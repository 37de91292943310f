// Function expression (node), the axe check of a11y-placeholder-contrast, run on an empty
// enabled text field with a placeholder (which it then shows): returns false when the
// placeholder's colour, at its ::placeholder opacity and over the field's background, has a
// contrast ratio below 4.5:1 (3:1 for large text: 24 px, or 18.66 px bold); undefined when
// the background cannot be read (an image or a gradient behind the field); true otherwise.
/* global axe */
(function (node) {
  const { color } = axe.commons;
  const style = getComputedStyle(node, '::placeholder');
  const text = new color.Color();
  text.parseString(style.color);
  const opacity = parseFloat(style.opacity);
  if (Number.isFinite(opacity)) text.alpha *= opacity;
  const background = color.getBackgroundColor(node, [], false);
  if (!background) {
    this.data({ why: 'its background could not be read (an image, a gradient or other content behind it)' });
    return undefined;
  }
  const shown = color.flattenColors(text, background);
  const ratio = color.getContrast(background, shown);
  const size = parseFloat(style.fontSize) || 16;
  const large = size >= 24 || (parseInt(style.fontWeight, 10) >= 700 && size >= 18.66);
  const needed = large ? 3 : 4.5;
  this.data({
    ratio: (Math.floor(ratio * 100) / 100).toFixed(2), needed: needed.toFixed(1),
    fg: shown.toHexString(), bg: background.toHexString(),
  });
  return ratio >= needed;
})
