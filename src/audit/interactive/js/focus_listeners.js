// Function expression (found, most): of what listens for focus events (found, from Probe.listening), keeps the elements that listen themselves for the next Tab plan (js/focus_walk_begin.js); returns {any, walk}: whether anything listens, and whether a walk through the whole order is needed (a listener on the window, the document or a container, which any element's focus may reach, or more than most elements of their own).
function (found, most) {
  const FOCUSABLE = 'a[href], button, input, select, textarea, iframe, summary, [tabindex], [contenteditable]';
  const own = new WeakSet();
  // Every element that listens, and whether the window or the document does: what focus on
  // an element may set off (read by js/focus_looks.js).
  const listening = {nodes: new WeakSet(), everywhere: false};
  let containers = 0;
  let count = 0;
  for (const {node} of found) {
    if (node instanceof Element) listening.nodes.add(node);
    else listening.everywhere = true;
    if (node instanceof Element && node.tabIndex >= 0 && !node.querySelector(FOCUSABLE)) {
      own.add(node);
      count += 1;
    } else {
      containers += 1;
    }
  }
  globalThis[Symbol.for('a11y.focusListeners')] = own;
  globalThis[Symbol.for('a11y.focusListening')] = listening;
  return {any: found.length > 0, walk: containers > 0 || count > most};
}
