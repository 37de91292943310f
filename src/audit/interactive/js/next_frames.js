// Function expression (capMs): resolves once the page has drawn twice and a 0 ms timer has run, or after capMs when it draws nothing (hidden, or its main thread busy).
function (capMs) {
  return new Promise((done) => {
    requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 0)));
    setTimeout(done, capMs);
  });
}
