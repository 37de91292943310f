/* global a11yProbe */
// Function expression (waitMs): after the page's timers of up to waitMs have run, describes the element that has focus ({id, target, html, label, text, kind, frame}), or returns null when focus left the document.
// Pages that hold focus move it back from blur handlers, often after a timer: read too early,
// focus looks free.
async function (waitMs) {
  await new Promise((resolve) => setTimeout(resolve, waitMs));
  const el = a11yProbe.deepActive();
  if (!el) return null;
  return {
    id: a11yProbe.idOf(el), label: a11yProbe.label(el),
    text: (el.innerText || el.value || el.getAttribute('aria-label') || '').trim().slice(0, 80),
    kind: a11yProbe.kind(el),
    frame: el.localName === 'iframe' || el.localName === 'frame' || el.localName === 'object',
    ...a11yProbe.describe(el),
  };
}
