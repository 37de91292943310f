/* global a11yProbe */
// Function expression (waitMs): after the page's timers of up to waitMs have run, describes the element that has focus ({id, target, html, label, text, kind, frame, pulledBack}), or returns null when focus left the document.
// Pages that hold focus move it back from blur handlers, often after a timer: read too early,
// focus looks free.
// pulledBack: since the last read, focus left the document (a focusout with no element to go
// to) and a script of the page then put it on an element again. In a browser whose own
// controls took focus meanwhile, such a script cannot take it back; here it can. The tracker
// is installed by the first read, so it sees every press after the first.
async function (waitMs) {
  // An image map's area has no box of its own: its image's shows it.
  const shown = (el) => (el.localName === 'area' ? true
    : el.checkVisibility ? el.checkVisibility({visibilityProperty: true}) : a11yProbe.isRendered(el));
  const focusable = (el) => !el.disabled && !el.closest('[inert]') && shown(el);
  const key = Symbol.for('a11y.focusExits');
  let exits = window[key];
  if (!exits) {
    exits = window[key] = {left: false, pulledBack: false};
    // Focus leaving the document has no element to go to, and no focusin belongs to that
    // move; so a focusin after it is a script putting focus back. (No timer marks the end of
    // the move: a 0 ms timer and a page's 10 ms one sit in different task queues, and which
    // runs first under load is the scheduler's choice.) A frame element taking focus is
    // focus moving into the frame, not back.
    addEventListener('focusout', (event) => {
      if (event.relatedTarget === null) exits.left = true;
    }, true);
    addEventListener('focusin', (event) => {
      const into = event.target;
      const frame = into && ['iframe', 'frame', 'object'].includes(into.localName);
      if (exits.left && !frame) exits.pulledBack = true;
      exits.left = false;
    }, true);
  }
  // Without a timer of the page's due, nothing of the page's can run before it: no wait
  // (yielding to the event loop would also wait for the frame the press scheduled).
  if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
  const pulledBack = exits.pulledBack;
  exits.pulledBack = false;
  exits.left = false; // a Tab that later brings focus in from outside is the keyboard's, not a script's
  const el = a11yProbe.deepActive();
  // An element that can no longer have focus (hidden, disabled or made inert by the press: a
  // dialog's Close) loses it in a task the browser posts after its next style update, which
  // this read does not wait for: it is as good as gone.
  if (!el || !focusable(el)) return null;
  return {
    id: a11yProbe.idOf(el), label: a11yProbe.label(el),
    text: (el.innerText || el.value || el.getAttribute('aria-label') || '').trim().slice(0, 80),
    kind: a11yProbe.kind(el),
    frame: el.localName === 'iframe' || el.localName === 'frame' || el.localName === 'object',
    pulledBack,
    ...a11yProbe.describe(el),
  };
}
