// Function expression (node, colours: js/colour_behind.js's helpers), the axe check of a11y-field-boundary-contrast, run on a control a
// user finds by its outline (js/field_boundary_applies.js): returns false when the page draws
// where the control is (a border, a fill, a shadow or an outline, on it or on a wrapper that
// holds only it) and none of that reaches 3:1 against the colour around it; undefined when the
// colour around it cannot be read (an image or gradient) or only a soft shadow might set it
// apart; true when something reaches 3:1, or when nothing is drawn at all (then it is found by
// its label or text, which other rules judge).
/* global axe */
(function (node, colours) {
  const { color } = axe.commons;
  const { WHITE, parse, parentOf, behind } = colours;
  let why = '';
  const around = (el) => {
    const colour = parentOf(el) ? behind(parentOf(el)) : WHITE;
    if (!colour) why = 'the colour around it could not be read (a background image or gradient behind it)';
    return colour;
  };
  const ratioOf = (shown, outside) => color.getContrast(shown, outside);
  // What el draws where it is, each as {what, shown, ratio, bg, soft}; null when unreadable.
  const drawn = (el, outside) => {
    const style = getComputedStyle(el);
    if (style.backgroundImage !== 'none') {
      why = 'it is drawn with a background image or gradient, whose contrast this check cannot read';
      return null;
    }
    const fill = color.flattenColors(parse(style.backgroundColor), outside);
    const marks = [];
    const mark = (what, shown, extra = {}) => {
      const ratio = ratioOf(shown, outside);
      if (ratio > 1) marks.push({what, shown, ratio, bg: outside, ...extra});
    };
    mark('fill', fill);
    const sides = ['Top', 'Right', 'Bottom', 'Left'].filter((side) => (parseFloat(style[`border${side}Width`]) || 0) >= 1
      && !['none', 'hidden'].includes(style[`border${side}Style`]));
    const same = sides.length === 4 && sides.every((side) => style[`border${side}Color`] === style.borderTopColor);
    for (const side of same ? ['Top'] : sides) {
      mark(same ? 'border' : `${side.toLowerCase()} border`, color.flattenColors(parse(style[`border${side}Color`]), fill));
    }
    if (style.outlineStyle !== 'none' && (parseFloat(style.outlineWidth) || 0) >= 1) {
      mark('outline', color.flattenColors(parse(style.outlineColor), outside));
    }
    if (style.boxShadow && style.boxShadow !== 'none') {
      for (const match of style.boxShadow.matchAll(/rgba?\([^)]*\)([^,]*)/g)) {
        const lengths = match[1].trim().split(/\s+/).map(parseFloat).filter(Number.isFinite);
        const [, , blur = 0, spread = 0] = lengths;
        mark('shadow', color.flattenColors(parse(match[0].slice(0, match[0].indexOf(')') + 1)), outside),
          {soft: blur > 0 && spread < 1});
      }
    }
    return marks;
  };
  const outside = around(node);
  let marks = outside && drawn(node, outside);
  if (!marks) {
    this.data({ why });
    return undefined;
  }
  // A wrapper that holds only this control and hugs it (a search box drawn around its field
  // and button) is where the control's outline may be drawn instead.
  const own = node.getBoundingClientRect();
  const FIELDS = 'input:not([type="hidden"]):not([type="submit"]):not([type="button"]):not([type="reset"]):not([type="image"]), select, textarea';
  for (let up = parentOf(node), level = 0; up && level < 3; up = parentOf(up), level += 1) {
    const box = up.getBoundingClientRect();
    if (box.left < own.left - 48 || box.right > own.right + 48 || box.top < own.top - 16 || box.bottom > own.bottom + 16) break;
    if ([...up.querySelectorAll(FIELDS)].some((other) => other !== node)) break;
    const outer = around(up);
    const more = outer && drawn(up, outer);
    if (!more) {
      this.data({ why });
      return undefined;
    }
    marks = marks.concat(more);
  }
  if (!marks.length || marks.some((mark) => mark.ratio >= 3)) return true;
  if (marks.some((mark) => mark.soft)) {
    this.data({ why: 'a soft shadow may set it apart' });
    return undefined;
  }
  const best = marks.reduce((a, b) => (b.ratio > a.ratio ? b : a));
  this.data({
    what: best.what, ratio: (Math.floor(best.ratio * 100) / 100).toFixed(2),
    fg: best.shown.toHexString(), bg: best.bg.toHexString(),
  });
  return false;
})
