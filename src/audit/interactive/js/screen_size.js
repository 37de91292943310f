// Function expression (width, height, capMs): resolves to the window's CSS size [innerWidth, innerHeight] once it is width x height (a new screen reaches the page a little after it is set), or after capMs; with capMs 0, at once.
// The size is read on the window's resize event and every 2 ms between (the renderer takes the
// new size before the frame that fires the event): a coarser poll made every screen change of
// the interaction phase wait up to its period for nothing.
function (width, height, capMs) {
  const size = () => [innerWidth, innerHeight];
  const started = performance.now();
  return new Promise((done) => {
    let timer = 0;
    const check = () => {
      if ((innerWidth !== width || innerHeight !== height) && performance.now() - started < capMs) return false;
      removeEventListener('resize', check);
      clearTimeout(timer);
      done(size());
      return true;
    };
    if (check()) return;
    addEventListener('resize', check);
    const poll = () => {
      if (!check()) timer = setTimeout(poll, 2);
    };
    timer = setTimeout(poll, 2);
  });
}
