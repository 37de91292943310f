// Function expression (node), the axe check of a11y-duplicate-id-ref, run on an element that
// repeats an id some element refers to. Each reference is taken to be meant for the element
// with that id nearest to it in the tree (the deepest common ancestor; for label for, the
// nearest labelable element), and always reaches the first. Returns false (the references and
// the first element as related nodes) when a reference is meant for this element: it reaches
// the other one instead; undefined when this element and the first are equally near to a
// reference (which one it is meant for is unclear), or when every reference meant for this
// element is a name or description and both elements have the same text (what is announced
// may be right either way); true when every reference is meant for another element.
(function (node) {
  const root = node.getRootNode();
  const id = node.getAttribute('id');
  const same = Array.from(root.querySelectorAll('[id]')).filter((el) => el.id === id);
  const first = same[0];
  const TEXTUAL = ['aria-labelledby', 'aria-describedby', 'aria-errormessage', 'aria-details'];
  const OTHER = ['aria-controls', 'aria-owns', 'aria-activedescendant', 'aria-flowto'];
  const LABELABLE = 'button, input:not([type="hidden"]), meter, output, progress, select, textarea';
  const names = (el) => [...TEXTUAL, ...OTHER, 'for', 'headers'].filter((name) => {
    if (name === 'for' && el.localName !== 'label') return false;
    if (name === 'headers' && !['td', 'th'].includes(el.localName)) return false;
    const value = el.getAttribute(name);
    return !!value && (name === 'for' ? value === id : value.trim().split(/\s+/).includes(id));
  });
  const selector = [...TEXTUAL, ...OTHER].map((name) => `[${name}]`).concat(['label[for]', 'td[headers]', 'th[headers]']);
  const referrers = Array.from(root.querySelectorAll(selector.join(', '))).filter((el) => names(el).length);
  // How deep the nearest common ancestor of two elements is.
  const closeness = (a, b) => {
    let common = a;
    while (common && !common.contains(b)) common = common.parentNode;
    let depth = 0;
    for (let up = common; up; up = up.parentNode) depth += 1;
    return depth;
  };
  const text = (el) => el.textContent.replace(/\s+/g, ' ').trim();
  const meant = [];
  const unclear = [];
  for (const referrer of referrers) {
    const candidates = names(referrer).includes('for') ? same.filter((el) => el.matches(LABELABLE)) : same;
    if (!candidates.includes(node)) continue;
    const mine = closeness(referrer, node);
    const best = Math.max(...candidates.filter((el) => el !== node).map((el) => closeness(referrer, el)));
    if (mine > best) meant.push(referrer);
    else if (mine === best && candidates.includes(first)) unclear.push(referrer);
  }
  this.relatedNodes([first, ...meant, ...unclear]);
  if (!meant.length) return unclear.length ? undefined : true;
  const onlyText = meant.every((el) => names(el).every((name) => TEXTUAL.includes(name)));
  if (onlyText && first.localName === node.localName && text(first) === text(node)) return undefined;
  return false;
})
