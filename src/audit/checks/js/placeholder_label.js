// Function expression (node), the axe check of a11y-placeholder-label, run on a visible text
// field, text area or select with a placeholder: returns false when the placeholder is all that
// labels it (no label element with text, no aria-label, no aria-labelledby with text, no
// title), since the placeholder disappears as soon as the user types; undefined (needs review)
// when a button with text right next to it may label its purpose instead (a search box and its
// Search button, WCAG technique G167); true otherwise.
(function (node) {
  const clean = (text) => (text || '').replace(/\s+/g, ' ').trim();
  const doc = node.ownerDocument;
  const root = node.getRootNode();
  if (clean(node.getAttribute('aria-label')) || clean(node.getAttribute('title'))) return true;
  const ids = clean(node.getAttribute('aria-labelledby')).split(' ').filter(Boolean);
  const byId = (id) => (root.getElementById ? root.getElementById(id) : doc.getElementById(id));
  if (ids.some((id) => byId(id) && clean(byId(id).textContent))) return true;
  if (Array.from(node.labels || []).some((label) => clean(label.textContent) || label.querySelector('img[alt]:not([alt=""])'))) {
    return true;
  }
  // G167: a button with a visible name just after (or before) the field, in the same group.
  const BUTTON = 'button, input[type="submit"], input[type="button"], input[type="image"], [role="button"]';
  const named = (el) => !!el && el.matches(BUTTON) && !!clean(el.textContent || el.value || el.getAttribute('aria-label') || el.alt);
  const near = [node.nextElementSibling, node.previousElementSibling];
  if (node.parentElement && node.parentElement.children.length <= 3) {
    near.push(node.parentElement.nextElementSibling, node.parentElement.previousElementSibling);
  }
  return near.some(named) ? undefined : false;
})
