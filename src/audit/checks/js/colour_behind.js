// Function expression (axe): the colour helpers the contrast checks of ours share, for an evaluate function composed with them: {WHITE, parse (a CSS colour as axe's Color), parentOf (the flat tree's parent element), behind (the colour of an element's own and its ancestors' backgrounds over the canvas; null under a background image or gradient)}.
// behind's answers are kept in axe's per-run cache: the fields of a form, the controls of a
// toolbar share their ancestors.
(function (axe) {
  const { color } = axe.commons;
  const WHITE = new color.Color(255, 255, 255, 1);
  const parse = (value) => {
    const parsed = new color.Color();
    parsed.parseString(value);
    return parsed;
  };
  const parentOf = (el) => el.assignedSlot || el.parentElement
    || (el.parentNode instanceof ShadowRoot ? el.parentNode.host : null);
  const known = axe._cache.get('a11y-colour-behind', () => new Map());
  const behind = (start) => {
    if (!known.has(start)) {
      const layers = [];
      let colour = null;
      for (let up = start; up; up = parentOf(up)) {
        const style = getComputedStyle(up);
        if (style.backgroundImage !== 'none') break;
        const layer = parse(style.backgroundColor);
        if (layer.alpha > 0) layers.push(layer);
        if (layer.alpha >= 1 || !parentOf(up)) {
          colour = layers.reverse().reduce((below, above) => color.flattenColors(above, below), WHITE);
          break;
        }
      }
      known.set(start, colour);
    }
    return known.get(start);
  };
  return { WHITE, parse, parentOf, behind };
})
