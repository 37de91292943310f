// Function expression (box): scrolls the document so that box ({x, y, width, height}, document CSS px) is in the window, from its top left; returns [scrollX, scrollY] after.
function (box) {
  window.scrollTo({left: Math.max(0, box.x - 8), top: Math.max(0, box.y - 8), behavior: 'instant'});
  return [window.scrollX, window.scrollY];
}
