// Function expression (capMs, count): resolves once the page has drawn count times (at least once) and a 0 ms timer has run, or after capMs when it draws nothing (hidden, or its main thread busy).
function (capMs, count) {
  return new Promise((done) => {
    let left = Math.max(1, count || 1);
    const frame = () => {
      left -= 1;
      if (left > 0) requestAnimationFrame(frame);
      else setTimeout(done, 0);
    };
    requestAnimationFrame(frame);
    setTimeout(done, capMs);
  });
}
