// Function expression (): in the page's own world, stops every form submission from leaving the page and counts it; returns the count so far.
// Installed once per document before the interactive checks act; a submission is a request
// to a server on the user's behalf, which an audit must never make.
function () {
  const key = Symbol.for('a11y.blockedSubmissions');
  if (!(key in window)) {
    window[key] = 0;
    window.addEventListener('submit', (event) => {
      event.preventDefault();
      window[key] += 1;
    }, true);
    Object.defineProperty(HTMLFormElement.prototype, 'submit', {
      configurable: true,
      writable: true,
      value: function () { window[key] += 1; },
    });
  }
  return window[key];
}
