// Function expression (found): of what listens for the events a change of setting fires (found, from Probe.listening), keeps the listening nodes for the 'find' of js/input_changes.js, which then takes only fields such a listener can hear: the field itself, an ancestor (a delegating form or container), or anything when the window or the document listens. Returns whether anything listens.
function (found) {
  const nodes = new Set();
  let everywhere = false;
  for (const {node} of found) {
    if (node === window || node === document) everywhere = true;
    else nodes.add(node);
  }
  globalThis[Symbol.for('a11y.inputListeners')] = {nodes, everywhere};
  return found.length > 0;
}
