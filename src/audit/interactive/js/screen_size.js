// Function expression (width, height, capMs): resolves to the window's CSS size [innerWidth, innerHeight] once it is width x height (a new screen reaches the page a little after it is set), or after capMs; with capMs 0, at once.
function (width, height, capMs) {
  const size = () => [innerWidth, innerHeight];
  const started = performance.now();
  return new Promise((done) => {
    const check = () => {
      if ((innerWidth === width && innerHeight === height) || performance.now() - started >= capMs) {
        done(size());
        return;
      }
      setTimeout(check, 10);
    };
    check();
  });
}
