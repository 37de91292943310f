// Whole script (an init script, and evaluated again before each readiness check): installs the
// readiness tracker once per document and evaluates to undefined. The tracker counts pending
// short timers (setTimeout up to SHORT_MS; a callback that re-arms itself is a poller and is
// not counted) and notes the last DOM mutation; globalThis[Symbol.for('a11y.readiness')]
// (quiet, cap) then resolves true once no short timer is pending and the DOM stayed unchanged
// for quiet ms, or false after cap ms.
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
          if (!timers.size && idle >= quiet) resolve(true);
          else if (now() >= end) resolve(false);
          else realSetTimeout(check, timers.size ? 20 : quiet - idle);
        };
        check();
      }),
  });
})();
