/* global a11yProbe */
// Function expression (waitMs): after the page's timers of up to waitMs have run, describes the element that has focus ({id, target, html, label, text, kind, frame, pulledBack}), or returns null when focus left the document.
// Pages that hold focus move it back from blur handlers, often after a timer: read too early,
// focus looks free.
// pulledBack: since the last read, focus left the document (a focusout with no element to go
// to) and a script of the page put it on an element again in a later task. In a browser whose
// own controls took focus meanwhile, such a script cannot take it back; here it can. The
// tracker is installed by the first read, so it sees every press after the first.
async function (waitMs) {
  const key = Symbol.for('a11y.focusExits');
  let exits = window[key];
  if (!exits) {
    exits = window[key] = {left: false, sameTask: false, pulledBack: false};
    addEventListener('focusout', (event) => {
      if (event.relatedTarget !== null) return;
      exits.left = true;
      exits.sameTask = true; // a move completed in this task (into a frame) is no way back
      setTimeout(() => { exits.sameTask = false; }, 0);
    }, true);
    addEventListener('focusin', () => {
      if (exits.left && !exits.sameTask) exits.pulledBack = true;
      exits.left = false;
    }, true);
  }
  await new Promise((resolve) => setTimeout(resolve, waitMs));
  const pulledBack = exits.pulledBack;
  exits.pulledBack = false;
  exits.left = false; // a Tab that later brings focus in from outside is the keyboard's, not a script's
  const el = a11yProbe.deepActive();
  if (!el) return null;
  return {
    id: a11yProbe.idOf(el), label: a11yProbe.label(el),
    text: (el.innerText || el.value || el.getAttribute('aria-label') || '').trim().slice(0, 80),
    kind: a11yProbe.kind(el),
    frame: el.localName === 'iframe' || el.localName === 'frame' || el.localName === 'object',
    pulledBack,
    ...a11yProbe.describe(el),
  };
}
