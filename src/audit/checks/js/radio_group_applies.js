// Function expression (node), the matches of a11y-radio-group: returns true for the first
// radio button or checkbox of a group: two or more of the same type sharing a name in the same
// form (or, outside any form, the same document or shadow root).
(function (node) {
  const name = node.getAttribute('name');
  if (!name) return false;
  const type = node.type;
  const scope = node.form || node.getRootNode();
  const members = Array.from(scope.querySelectorAll('input')).filter(
    (el) => el.type === type && el.getAttribute('name') === name && el.form === node.form,
  );
  return members.length >= 2 && members[0] === node;
})
