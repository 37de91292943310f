// Function expression (node), the axe check of a11y-hint-described, run on a visible form
// field: returns undefined (needs review, the hints as related nodes) when text beside it that
// reads as a hint or an error (a class or id naming a hint, help, error, invalid or feedback,
// or words such as "must", "required", "invalid", "format", "for example") is neither part of
// its name nor referenced by its aria-describedby or aria-errormessage, so a screen-reader user
// never hears it with the field; true otherwise. "Beside" is inside the field's own group (its
// nearest ancestors, up to three, that hold no other field) or, when its parent holds other
// fields too, among its siblings up to the nearest other field or label.
/* global axe */
(function (node) {
  const { dom, text } = axe.commons;
  const FIELDS = 'input:not([type="hidden"]), select, textarea, button, [role="textbox"], [role="combobox"]';
  const CLASS = /(?:^|[\s_-])(?:error|errors|hint|hints|help|helper|instructions?|invalid|feedback|validation|description)(?:$|[\s_-])/i;
  const WORDS = /\b(?:must|required|invalid|errors?|format|at least|at most|characters|digits|for example|e\.g\.|should be|only letters|only numbers)\b/i;
  const clean = (value) => (value || '').replace(/\s+/g, ' ').trim();
  const root = node.getRootNode();
  const doc = node.ownerDocument;
  const byId = (id) => (root.getElementById ? root.getElementById(id) : doc.getElementById(id));
  const refs = ['aria-describedby', 'aria-errormessage', 'aria-labelledby']
    .flatMap((name) => clean(node.getAttribute(name)).split(' '))
    .filter(Boolean).map(byId).filter(Boolean);
  const labels = Array.from(node.labels || []);
  // The field's name and description, computed only once a candidate hint needs them (most
  // fields have none beside them, and the name is the dearest part).
  let known = null;
  const heard = () => {
    if (!known) {
      const virtual = axe.utils.getNodeFromTree(node);
      known = {
        name: virtual ? clean(text.accessibleTextVirtual(virtual)).toLowerCase() : '',
        described: refs.map((ref) => clean(ref.textContent).toLowerCase()).join(' '),
      };
    }
    return known;
  };

  // The field's group: the highest of its three nearest ancestors that holds no other field.
  let group = null;
  for (let up = node.parentElement, depth = 0; up && depth < 3 && up !== doc.body; up = up.parentElement, depth += 1) {
    if (Array.from(up.querySelectorAll(FIELDS)).some((el) => el !== node)) break;
    group = up;
  }
  // Without a group of its own (fields side by side in one parent), its siblings up to the
  // nearest other field or label on each side.
  // Going back, its own label ends the search too: what comes before it is another field's.
  const area = group ? Array.from(group.querySelectorAll('*')) : [];
  if (!group) {
    const stop = (el) => el.matches(FIELDS) || !!el.querySelector(FIELDS)
      || (el.localName === 'label' && !labels.includes(el)) || !!el.querySelector('label');
    for (const step of ['previousElementSibling', 'nextElementSibling']) {
      for (let el = node[step]; el && !stop(el); el = el[step]) {
        area.push(el, ...el.querySelectorAll('*'));
        if (step === 'previousElementSibling' && labels.includes(el)) break;
      }
    }
  }
  const hints = [];
  for (const el of area) {
    if (el.contains(node) || el.closest('label, legend, h1, h2, h3, h4, h5, h6, option, script, style')) continue;
    if (labels.some((label) => label.contains(el) || el.contains(label)) || refs.some((ref) => ref.contains(el) || el.contains(ref))) continue;
    if (hints.some((hint) => hint.contains(el))) continue;
    const words = clean(el.textContent);
    if (words.length < 3 || words.length > 300) continue;
    const marked = CLASS.test(el.className && typeof el.className === 'string' ? el.className : '') || CLASS.test(el.id);
    if ((!marked && !WORDS.test(words)) || !dom.isVisibleOnScreen(el)) continue;
    const lower = words.toLowerCase();
    const {name, described} = heard();
    if (name.includes(lower) || described.includes(lower)) continue;
    hints.push(el);
  }
  if (!hints.length) return true;
  this.relatedNodes(hints);
  return undefined;
})
