// Whole script, evaluated for its value: the href of every link (a[href], area[href]) of the
// document and of the open shadow roots inside it, in document order.
(() => {
  const out = [];
  const walk = (root) => {
    for (const a of root.querySelectorAll('a[href], area[href]'))
      if (typeof a.href === 'string') out.push(a.href);
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot);
  };
  walk(document);
  return out;
})()
