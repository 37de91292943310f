// Function expression (direction, amount), on a scrollable element (this) or none for the page: scrolls, returns {x, y, step, max_x, max_y}.
(function (direction, amount) {
  const el = this && this.nodeType === 1 ? this : null;
  const box = el || document.scrollingElement || document.documentElement;
  const vertical = direction === 'up' || direction === 'down';
  const page = el ? (vertical ? el.clientHeight : el.clientWidth) : (vertical ? innerHeight : innerWidth);
  const step = (amount || page) * (direction === 'up' || direction === 'left' ? -1 : 1);
  (el || window).scrollBy({left: vertical ? 0 : step, top: vertical ? step : 0, behavior: 'instant'});
  return {x: el ? el.scrollLeft : scrollX, y: el ? el.scrollTop : scrollY, step: Math.abs(step),
          max_x: Math.max(0, box.scrollWidth - box.clientWidth),
          max_y: Math.max(0, box.scrollHeight - box.clientHeight)};
})
