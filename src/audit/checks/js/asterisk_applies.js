// Function expression (node), the matches of a11y-asterisk-required: returns true for an
// enabled form field (not a button or hidden input) whose label (a label element or an
// aria-labelledby target) shows an asterisk, alone or at either end of its text.
(function (node) {
  if (node.disabled || ['hidden', 'submit', 'button', 'reset', 'image'].includes(node.type)) return false;
  const root = node.getRootNode();
  const ids = (node.getAttribute('aria-labelledby') || '').trim().split(/\s+/).filter(Boolean);
  const labels = Array.from(node.labels || []).concat(
    ids.map((id) => (root.getElementById ? root.getElementById(id) : null)).filter(Boolean),
  );
  return labels.some((label) => {
    const shown = (label.innerText || label.textContent || '').replace(/\s+/g, ' ').trim();
    return /^\*|\*$|\*\s*:$|\s\*\s/.test(shown);
  });
})
