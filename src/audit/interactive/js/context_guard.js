/* global a11yProbe */
// Function expression (action): 'start' stops and records every navigation of the document to another one; 'read' returns and forgets what was recorded since ({navigations: [{url, from, stopped}]}); 'stop' removes the listener (once its last user stops) and returns the same.
// The Navigation API's navigate event is fired for every navigation a document starts
// (location changes, link activation, form submission, reload) before it begins; cancelling
// it keeps the audited document. Same-document navigations (fragment, history.pushState) are
// not changes of context and are let through. `from` is the element that had focus then.
// Form submissions are the submission guard's (js/submission_guard.js, in the page's world).
function (action) {
  const key = Symbol.for('a11y.contextGuard');
  let guard = globalThis[key];
  if (!guard) {
    guard = {navigations: [], users: 0};
    guard.onNavigate = (event) => {
      if (event.destination.sameDocument) return;
      const active = a11yProbe.deepActive();
      guard.navigations.push({
        url: String(event.destination.url).slice(0, 200),
        from: active ? {label: a11yProbe.label(active), ...a11yProbe.describe(active)} : null,
        stopped: event.cancelable,
      });
      if (event.cancelable) event.preventDefault();
    };
    globalThis[key] = guard;
  }
  if (action === 'start') {
    if (guard.users === 0 && globalThis.navigation) navigation.addEventListener('navigate', guard.onNavigate);
    guard.users += 1;
  }
  const seen = {navigations: guard.navigations.splice(0)};
  if (action === 'stop' && guard.users > 0) {
    guard.users -= 1;
    if (guard.users === 0 && globalThis.navigation) navigation.removeEventListener('navigate', guard.onNavigate);
  }
  return seen;
}
