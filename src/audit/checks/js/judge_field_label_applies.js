// Function expression (node), the matches of a11y-judge-field-label: returns true for a visible
// programmatic label (a label element, or an element an aria-labelledby points to) of a visible
// form field: an element of a field role, or an input of a type without a role (date, file,
// password, ...).
/* global axe */
(function (node) {
  const { aria, dom } = axe.commons;
  const ROLES = ['checkbox', 'combobox', 'listbox', 'menuitemcheckbox', 'menuitemradio', 'radio',
    'searchbox', 'slider', 'spinbutton', 'switch', 'textbox'];
  const TYPES = ['color', 'date', 'datetime-local', 'file', 'month', 'password', 'time', 'week'];
  const isField = (el) => {
    if (!el || !dom.isVisibleOnScreen(el)) return false;
    const role = aria.getRole(el);
    if (ROLES.includes(role)) return true;
    return el.localName === 'input' && !el.hasAttribute('role') && TYPES.includes((el.type || '').toLowerCase());
  };
  // The elements of this root that name others with aria-labelledby, by referenced id; built
  // once per root and run (axe clears its cache after each run).
  const referrers = () => {
    const root = node.getRootNode();
    const key = 'a11y-judge-labelledby';
    const byRoot = axe._cache.get(key, () => new Map());
    if (!byRoot.has(root)) {
      const byId = new Map();
      for (const el of root.querySelectorAll('[aria-labelledby]')) {
        for (const id of el.getAttribute('aria-labelledby').split(/\s+/).filter(Boolean)) {
          if (!byId.has(id)) byId.set(id, []);
          byId.get(id).push(el);
        }
      }
      byRoot.set(root, byId);
    }
    return byRoot.get(root).get(node.id) || [];
  };
  if (!dom.isVisibleOnScreen(node)) return false;
  if (node.localName === 'label' && isField(node.control)) return true;
  return Boolean(node.id) && referrers().some(isField);
})
