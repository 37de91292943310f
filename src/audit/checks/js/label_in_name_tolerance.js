// Function expression (original), an override of axe's label-content-name-mismatch check:
// returns its evaluate, which keeps axe's verdict except where axe fails an element that the
// ACT label-in-name algorithm passes (punctuation such as a trailing ellipsis is not text), that
// ACT leaves out (label and name differ only by an abbreviation or by hyphenation), or whose
// text a ligature icon font draws as a picture (then that text is no label at all).
/* global axe */
(function (original) {
  const ICON_FONT = /^(material[ -](icons|symbols)\b|material-(icons|symbols)\b|font ?awesome|ionicons|feather)/i;
  const firstFamily = (el) =>
    getComputedStyle(el).fontFamily.split(',')[0].trim().replace(/^["']|["']$/g, '');
  const visibleLabel = (node) => {
    const walker = node.ownerDocument.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    let label = '';
    while (walker.nextNode()) {
      const parent = walker.currentNode.parentElement;
      if (!parent || !axe.commons.dom.isVisibleOnScreen(parent) || ICON_FONT.test(firstFamily(parent))) continue;
      label += walker.currentNode.data;
    }
    return label;
  };
  // ACT's tokenizer: no parenthesised text, case folded, compatibility-decomposed, every
  // character that is not a letter or a digit a separator.
  const tokens = (text) =>
    text
      .replace(/\([^)]*\)/g, ' ')
      .toLowerCase()
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim()
      .split(' ')
      .filter(Boolean);
  const inside = (part, whole) => {
    for (let start = 0; start + part.length <= whole.length; start++) {
      if (part.every((token, i) => token === whole[start + i])) return true;
    }
    return part.length === 0;
  };
  // "Ave." for "Avenue": a short word ending in a full stop whose letters, in order, start a
  // longer word of the name.
  const abbreviates = (short, long) => {
    if (long.length <= short.length || long[0] !== short[0]) return false;
    let at = 0;
    for (const letter of long) if (letter === short[at]) at++;
    return at === short.length;
  };
  const abbreviated = (label, name) => {
    const names = tokens(name);
    return (label.match(/\p{L}{1,5}\./gu) || []).some((word) => {
      const short = word.slice(0, -1).toLowerCase();
      return !names.includes(short) && names.some((long) => abbreviates(short, long));
    });
  };
  // "nonstandard" for "non-standard": the same words once hyphens are dropped.
  const words = (text) =>
    tokens(text.replace(/[\u002d\u00ad\u2010\u2011]/g, '')).join(' ');
  return function (node, options, virtualNode) {
    const verdict = original.call(this, node, options, virtualNode);
    if (verdict !== false) return verdict;
    const name = axe.commons.text.accessibleTextVirtual(virtualNode);
    const label = visibleLabel(node);
    if (inside(tokens(label), tokens(name)) || abbreviated(label, name)) return true;
    const hyphenless = words(label);
    return hyphenless && ` ${words(name)} `.includes(` ${hyphenless} `) ? true : verdict;
  };
})
