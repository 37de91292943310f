// Function expression (node), the axe check of a11y-field-name-unique, run on a visible form
// field in a form: returns undefined (needs review, the earlier field as related node) when an
// earlier visible field of the same form has the same accessible name, in the same named group
// (fieldset or group) or none, and the same description, so nothing tells a screen-reader user
// which is which; true otherwise.
/* global axe */
(function (node) {
  const { aria, dom, text } = axe.commons;
  const FIELDS = 'input:not([type="hidden"]):not([type="submit"]):not([type="button"]):not([type="reset"]):not([type="image"]):not([type="radio"]), select, textarea';
  const clean = (value) => (value || '').replace(/\s+/g, ' ').trim().toLowerCase();
  // Names are computed once per field and run (a long form asks for each earlier field's).
  const names = axe._cache.get('a11y-field-name-unique', () => new Map());
  const nameOf = (el) => {
    if (!names.has(el)) {
      const virtual = axe.utils.getNodeFromTree(el);
      names.set(el, virtual ? clean(text.accessibleTextVirtual(virtual)) : '');
    }
    return names.get(el);
  };
  const description = (el) => {
    const root = el.getRootNode();
    const ids = (el.getAttribute('aria-describedby') || '').trim().split(/\s+/).filter(Boolean);
    return clean(ids.map((id) => (root.getElementById ? root.getElementById(id) : null))
      .filter(Boolean).map((ref) => ref.textContent).join(' ') || el.getAttribute('title'));
  };
  const group = (el) => {
    for (let up = el.parentElement; up && up !== el.form; up = up.parentElement) {
      const role = aria.getRole(up);
      if (up.localName === 'fieldset' || role === 'group' || role === 'radiogroup') {
        const virtual = axe.utils.getNodeFromTree(up);
        const label = virtual ? clean(text.accessibleTextVirtual(virtual)) : '';
        if (label) return label;
      }
    }
    return '';
  };
  const name = nameOf(node);
  if (!name || !node.form) return true;
  const before = Array.from(node.form.elements).filter(
    (el) => el !== node && el.matches(FIELDS) && (el.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_FOLLOWING),
  );
  const twin = before.find((el) => dom.isVisibleOnScreen(el) && nameOf(el) === name
    && group(el) === group(node) && description(el) === description(node));
  if (!twin) return true;
  this.relatedNodes([twin]);
  return undefined;
})
