/* global a11yProbe */
// Function expression (found): of what listens for key events (found, from Probe.listening), the page-wide listener a key pressed with no element focused reaches: {where, target, html} for the body, else the root element (for listeners on html, the document or the window); null when there is none, or when the body itself is editable (every key types).
function (found) {
  if (document.designMode === 'on' || (document.body && document.body.isContentEditable)) return null;
  const owners = new Set(found.map((f) => f.node));
  if (document.body && owners.has(document.body)) return {where: 'body', ...a11yProbe.describe(document.body)};
  for (const [node, where] of [[document.documentElement, 'html'], [document, 'document'], [window, 'window']]) {
    if (owners.has(node)) return {where, ...a11yProbe.describe(document.documentElement)};
  }
  return null;
}
