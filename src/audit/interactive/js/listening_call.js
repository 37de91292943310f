/* global FUNCTION */
// Function expression (meta, args, ...nodes): what Probe.listening calls, FUNCTION replaced by the caller's function expression first; the listening objects arrive as arguments of their own (a JSON argument cannot hold a node), null for the window, and meta[i] holds each one's {types, handlers}. Calls FUNCTION(found, ...args) with found [{node, types, handlers}] of the top document.
function (meta, args, ...nodes) {
  const found = [];
  nodes.forEach((node, i) => {
    if (node === null) found.push({node: window, ...meta[i]});
    else if (node instanceof Node && (node === document || node.ownerDocument === document)) found.push({node, ...meta[i]});
  });
  return (FUNCTION
  )(found, ...args);
}
