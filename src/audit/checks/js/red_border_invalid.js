// Function expression (node), the axe check of a11y-red-border-invalid, run on a visible text
// field, text area or select: returns undefined (needs review, the fields with other borders
// as related nodes) when its border is clearly red while other visible fields of its form (or
// page) have borders that are not, and nothing but that colour says it is in error: no
// aria-invalid, no aria-errormessage, no description, and no text in its group (its nearest
// ancestors holding no other field) that names an error; true otherwise.
/* global axe */
(function (node) {
  const { dom } = axe.commons;
  const FIELDS = 'input:not([type="hidden"]):not([type="submit"]):not([type="button"]):not([type="reset"]):not([type="image"]):not([type="checkbox"]):not([type="radio"]), select, textarea';
  const rgb = (value) => (value.match(/[\d.]+/g) || []).map(Number);
  // Red: a strong red channel well above green and blue, and not transparent.
  const isRed = (style) => ['Top', 'Right', 'Bottom', 'Left'].some((side) => {
    const width = parseFloat(style[`border${side}Width`]);
    const [r, g, b, a = 1] = rgb(style[`border${side}Color`]);
    return width > 0 && style[`border${side}Style`] !== 'none' && a > 0.5 && r >= 150 && r - Math.max(g, b) >= 90;
  });
  if (!isRed(window.getComputedStyle(node))) return true;
  const invalid = (node.getAttribute('aria-invalid') || 'false').trim().toLowerCase();
  if (invalid && invalid !== 'false') return true;
  if ((node.getAttribute('aria-errormessage') || '').trim() || (node.getAttribute('aria-describedby') || '').trim()) return true;
  const scope = node.form || node.ownerDocument;
  const others = Array.from(scope.querySelectorAll(FIELDS)).filter((el) => el !== node && dom.isVisibleOnScreen(el));
  const plain = others.filter((el) => !isRed(window.getComputedStyle(el)));
  if (!plain.length) return true;
  const ERROR = /\b(?:errors?|invalid|incorrect|wrong|required|must|missing|not valid|please enter|enter a)\b/i;
  let group = null;
  for (let up = node.parentElement, depth = 0; up && depth < 3; up = up.parentElement, depth += 1) {
    if (Array.from(up.querySelectorAll(FIELDS)).some((el) => el !== node)) break;
    group = up;
  }
  if (group && ERROR.test(group.innerText || '')) return true;
  this.relatedNodes(plain.slice(0, 3));
  return undefined;
})
