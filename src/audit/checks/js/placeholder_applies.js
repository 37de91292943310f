// Function expression (node), the matches of a11y-placeholder-label: returns true for an
// enabled text-like input or text area with a non-empty placeholder attribute (buttons,
// checkboxes, radios, files, ranges and colours take no placeholder).
(function (node) {
  const SKIP = ['hidden', 'submit', 'button', 'reset', 'image', 'checkbox', 'radio', 'file', 'range', 'color'];
  if (node.localName === 'input' && SKIP.includes((node.getAttribute('type') || 'text').toLowerCase())) return false;
  return !!(node.getAttribute('placeholder') || '').trim() && !node.disabled;
})
