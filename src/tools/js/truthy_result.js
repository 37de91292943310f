// Function expression (value): a wait_for_function check's verdict on what the user's script gave; returns {done: true, value} (JSON-safe) when truthy, else {done: false, last}.
// A function value is called (and awaited) first; a DOM node is described as <tag#id>.
async (v) => {
  if (typeof v === 'function') v = await v();
  if (!v) return {done: false, last: String(v)};
  if (v instanceof Node) {
    v = v.nodeType === 1 ? '<' + v.localName + (v.id ? '#' + v.id : '') + '>' : v.nodeName;
  } else {
    try { JSON.stringify(v); } catch { v = String(v); }
  }
  return {done: true, value: v};
}
