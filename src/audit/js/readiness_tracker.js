// Whole script (an init script, and evaluated again before each readiness check): installs the
// readiness tracker once per document and evaluates to undefined. The tracker counts pending
// short timers (setTimeout up to SHORT_MS; a callback that re-arms itself is a poller and is
// not counted) and the page's own requests until their answer is read (fetch and the body
// reads of its response, XMLHttpRequest until loadend), and notes the last DOM mutation;
// globalThis[Symbol.for('a11y.readiness')](quiet, cap) then resolves true once none of that is
// pending and the DOM stayed unchanged for quiet ms, or false after cap ms. (Counting requests
// here, not only from the browser's network events, closes the gap between a timer that
// starts a fetch and the event that reports it.)
(() => {
  const SHORT_MS = 1000;
  const key = Symbol.for('a11y.readiness');
  if (globalThis[key]) return;
  const realSetTimeout = setTimeout;
  const now = () => performance.now();
  const timers = new Set();
  let lastChange = now();
  let running = null;
  const touch = () => {
    lastChange = now();
  };
  globalThis.setTimeout = new Proxy(realSetTimeout, {
    apply(target, self, args) {
      const [fn, delay] = args;
      if (typeof fn !== 'function' || fn === running || !((Number(delay) || 0) <= SHORT_MS)) {
        return Reflect.apply(target, self, args);
      }
      let id;
      args[0] = function (...rest) {
        timers.delete(id);
        const outer = running;
        running = fn;
        try {
          return fn.apply(this, rest);
        } finally {
          running = outer;
          touch();
        }
      };
      id = Reflect.apply(target, self, args);
      timers.add(id);
      return id;
    },
  });
  globalThis.clearTimeout = new Proxy(clearTimeout, {
    apply(target, self, args) {
      timers.delete(args[0]);
      return Reflect.apply(target, self, args);
    },
  });
  let requests = 0;
  const track = (promise) => {
    requests++;
    const done = () => {
      requests--;
      touch();
    };
    promise.then(done, done);
    return promise;
  };
  if (typeof fetch === 'function') {
    globalThis.fetch = new Proxy(fetch, {
      apply: (target, self, args) => track(Reflect.apply(target, self, args)),
    });
    for (const read of ['arrayBuffer', 'blob', 'formData', 'json', 'text']) {
      const real = Response.prototype[read];
      if (typeof real !== 'function') continue;
      Response.prototype[read] = new Proxy(real, {
        apply: (target, self, args) => track(Reflect.apply(target, self, args)),
      });
    }
  }
  if (typeof XMLHttpRequest === 'function') {
    const realSend = XMLHttpRequest.prototype.send;
    XMLHttpRequest.prototype.send = new Proxy(realSend, {
      apply(target, self, args) {
        let finish;
        track(new Promise((resolve) => (finish = resolve)));
        self.addEventListener('loadend', finish, {once: true});
        try {
          return Reflect.apply(target, self, args);
        } catch (error) {
          finish(); // never sent (e.g. not opened): nothing to wait for
          throw error;
        }
      },
    });
  }
  new MutationObserver(touch).observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    characterData: true,
  });
  Object.defineProperty(globalThis, key, {
    value: (quiet, cap) =>
      new Promise((resolve) => {
        const end = now() + cap;
        const check = () => {
          const idle = now() - lastChange;
          const busy = timers.size || requests;
          if (!busy && idle >= quiet) resolve(true);
          else if (now() >= end) resolve(false);
          else realSetTimeout(check, busy ? 20 : quiet - idle);
        };
        check();
      }),
  });
})();
