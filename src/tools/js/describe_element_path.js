// Function expression (node): returns a short CSS path for the node, id-anchored when possible (null for no node).
(node) => {
  if (!node) return null;
  if (node.nodeType !== 1) return node.nodeName ? node.nodeName.toLowerCase() : null;
  const parts = [];
  let el = node;
  while (el && el.nodeType === 1 && parts.length < 6) {
    let part = el.localName;
    if (el.id) { parts.unshift(part + '#' + CSS.escape(el.id)); break; }
    part += [...el.classList].slice(0, 2).map(c => '.' + CSS.escape(c)).join('');
    const parent = el.parentElement;
    if (parent) {
      const same = [...parent.children].filter(x => x.localName === el.localName);
      if (same.length > 1) part += ':nth-of-type(' + (same.indexOf(el) + 1) + ')';
    }
    parts.unshift(part);
    el = parent;
  }
  return parts.join(' > ');
}
