// Function expression (original), an override of the matches of axe's
// scrollable-region-focusable rule: returns a matches that also requires the element to
// scroll further than its padding (both sides together) in a direction it may scroll, so a
// region whose only overflow is within its padding needs no keyboard access.
(function (original) {
  const scrolls = (overflow) => overflow === 'auto' || overflow === 'scroll';
  return function (node, virtualNode, context) {
    if (!original(node, virtualNode, context)) return false;
    const style = getComputedStyle(node);
    const padding = (a, b) => (parseFloat(style[a]) || 0) + (parseFloat(style[b]) || 0);
    const across = node.scrollWidth - node.clientWidth > padding('paddingLeft', 'paddingRight');
    const down = node.scrollHeight - node.clientHeight > padding('paddingTop', 'paddingBottom');
    return (scrolls(style.overflowX) && across) || (scrolls(style.overflowY) && down);
  };
})
