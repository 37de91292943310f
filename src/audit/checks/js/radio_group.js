// Function expression (node), the axe check of a11y-radio-group, run on the first radio button
// or checkbox of a group sharing a name: returns true when one fieldset with a legend, or one
// element of role group or radiogroup with an accessible name, holds every member. Otherwise,
// with the members as related nodes: false for radio buttons that follow a question (visible
// text before the first one, in the same form, with no other field between), which is then
// never announced with the options (WCAG technique H71); undefined for radio buttons with no
// such text (their labels may say everything), in the cells of a table with header cells (the
// headers may carry the question), and for checkboxes (they may be independent choices).
/* global axe */
(function (node) {
  const { aria, dom, text } = axe.commons;
  const name = node.getAttribute('name');
  const scope = node.form || node.getRootNode();
  const members = Array.from(scope.querySelectorAll('input')).filter(
    (el) => el.type === node.type && el.getAttribute('name') === name && el.form === node.form,
  );
  const named = (el) => {
    const virtual = axe.utils.getNodeFromTree(el);
    return !!virtual && !!text.accessibleTextVirtual(virtual).trim();
  };
  let common = node.parentElement;
  while (common && !members.every((member) => common.contains(member))) common = common.parentElement;
  for (let el = common; el; el = el.parentElement) {
    const role = aria.getRole(el);
    if ((el.localName === 'fieldset' || role === 'group' || role === 'radiogroup') && named(el)) return true;
  }
  this.relatedNodes(members.slice(1));
  if (node.type === 'checkbox') return undefined;
  const table = node.closest('td, th') && node.closest('table');
  if (table && table.querySelector('th')) return undefined;

  // The question: the nearest visible text before the first option (or its label), not part
  // of an option's label, with no other field in between.
  const labels = members.flatMap((member) => Array.from(member.labels || []));
  const inOption = (n) => members.some((m) => m.contains(n)) || labels.some((label) => label.contains(n));
  const boundary = node.form || (common && common.parentElement) || node.ownerDocument.body;
  const start = [node, ...Array.from(node.labels || [])].sort(
    (a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1),
  )[0];
  const FIELD = 'input:not([type="hidden"]), select, textarea, button';
  const walker = node.ownerDocument.createTreeWalker(boundary, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  walker.currentNode = start;
  while (walker.previousNode()) {
    const current = walker.currentNode;
    if (current.nodeType === Node.ELEMENT_NODE) {
      if (current.matches(FIELD) && !members.includes(current)) return undefined;
      continue;
    }
    if (!/[\p{L}\p{N}]/u.test(current.data) || inOption(current)) continue;
    if (dom.isVisibleOnScreen(current.parentElement)) return false;
  }
  return undefined;
})
