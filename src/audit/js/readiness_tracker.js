// Whole script (an init script, and evaluated again before each readiness check): installs the
// tracker of the page's own pending work once per document and evaluates to undefined. It has
// two readers.
// - Readiness: it counts pending short timers (setTimeout up to SHORT_MS; a callback that
//   re-arms itself is a poller and is not counted) and the page's own requests until their
//   answer is read (fetch and the body reads of its response, XMLHttpRequest until loadend),
//   and notes the last DOM mutation; globalThis[Symbol.for('a11y.readiness')](quiet, cap) then
//   resolves true once none of that is pending and the DOM stayed unchanged for quiet ms, or
//   false after cap ms. (Counting requests here, not only from the browser's network events,
//   closes the gap between a timer that starts a fetch and the event that reports it.)
// - Wake-ups: it also keeps every timeout not yet run with its due time, every interval with
//   its period, animation-frame and idle callbacks not yet run, the sockets, event sources,
//   peer connections, broadcast channels and workers the page opened, the media it started
//   and its last posted message; globalThis[Symbol.for('a11y.wakes')](horizon) returns what
//   may run a script of the page's own within horizon ms (['interval', 'socket', ...]; empty:
//   nothing the page scheduled can). A check that waits to see whether the page changes by
//   itself (moving content) skips the wait when nothing can.
// - Size watchers: globalThis[Symbol.for('a11y.sizeWatchers')]() lists what of the page's own
//   a new window size can run besides the window's resize listeners (which the debugger
//   lists): resize observers it made ('resize-observer'), change listeners on media queries
//   ('media-query'), resize listeners on the visual viewport ('visual-viewport'), animation-
//   frame callbacks pending ('animation-frame') and frames in the document, whose scripts
//   are their own ('frame'); empty: none. Seen from the document's first script on (an init
//   script runs before the document has an element): a tracker installed later answers null,
//   unknown.
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
  // Timeouts not yet run, by id: when each is due. A string's run is not seen: it is taken
  // as run once due.
  const later = new Map();
  const strings = new Set();
  globalThis.setTimeout = new Proxy(realSetTimeout, {
    apply(target, self, args) {
      const [fn, delay] = args;
      const due = now() + Math.max(0, Number(delay) || 0);
      if (typeof fn !== 'function') {
        const id = Reflect.apply(target, self, args);
        later.set(id, due);
        strings.add(id);
        return id;
      }
      const short = fn !== running && (Number(delay) || 0) <= SHORT_MS;
      let id;
      args[0] = function (...rest) {
        later.delete(id);
        if (!short) return fn.apply(this, rest);
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
      later.set(id, due);
      if (short) timers.add(id);
      return id;
    },
  });
  const intervals = new Map();
  globalThis.setInterval = new Proxy(setInterval, {
    apply(target, self, args) {
      const id = Reflect.apply(target, self, args);
      intervals.set(id, Math.max(0, Number(args[1]) || 0));
      return id;
    },
  });
  // Either clears either kind: timeouts and intervals share their ids.
  const forget = (id) => {
    timers.delete(id);
    later.delete(id);
    strings.delete(id);
    intervals.delete(id);
  };
  for (const name of ['clearTimeout', 'clearInterval']) {
    globalThis[name] = new Proxy(globalThis[name], {
      apply(target, self, args) {
        forget(args[0]);
        return Reflect.apply(target, self, args);
      },
    });
  }
  // Callbacks for the next frame or an idle moment, until they run or are cancelled.
  const callbacks = (request, cancel, pending) => {
    if (typeof globalThis[request] !== 'function') return;
    globalThis[request] = new Proxy(globalThis[request], {
      apply(target, self, args) {
        const [fn] = args;
        if (typeof fn !== 'function') return Reflect.apply(target, self, args);
        let id;
        args[0] = function (...rest) {
          pending.delete(id);
          return fn.apply(this, rest);
        };
        id = Reflect.apply(target, self, args);
        pending.add(id);
        return id;
      },
    });
    globalThis[cancel] = new Proxy(globalThis[cancel], {
      apply(target, self, args) {
        pending.delete(args[0]);
        return Reflect.apply(target, self, args);
      },
    });
  };
  const frames = new Set();
  const idles = new Set();
  callbacks('requestAnimationFrame', 'cancelAnimationFrame', frames);
  callbacks('requestIdleCallback', 'cancelIdleCallback', idles);
  // What the page opened that can bring it messages, kept weakly: [reason, object] pairs.
  const opened = [];
  const OPEN = {
    WebSocket: ['socket', (o) => o.readyState !== 3],
    EventSource: ['socket', (o) => o.readyState !== 2],
    RTCPeerConnection: ['socket', (o) => o.connectionState !== 'closed'],
    BroadcastChannel: ['socket', () => true],
    Worker: ['worker', () => true],
    SharedWorker: ['worker', () => true],
  };
  for (const [name, [reason, open]] of Object.entries(OPEN)) {
    if (typeof globalThis[name] !== 'function') continue;
    globalThis[name] = new Proxy(globalThis[name], {
      construct(target, args, newTarget) {
        const made = Reflect.construct(target, args, newTarget);
        opened.push([reason, open, new WeakRef(made)]);
        return made;
      },
    });
  }
  if (typeof HTMLMediaElement === 'function') {
    const played = new WeakSet();
    HTMLMediaElement.prototype.play = new Proxy(HTMLMediaElement.prototype.play, {
      apply(target, self, args) {
        if (self instanceof HTMLMediaElement && !played.has(self)) {
          played.add(self);
          opened.push(['media', (o) => !o.paused, new WeakRef(self)]);
        }
        return Reflect.apply(target, self, args);
      },
    });
  }
  // A loop of messages (a scheduler's) shows as a message very recent: the window's are
  // noted as they arrive (wrapping window.postMessage would change the source its receiver
  // sees), a message port's as they are posted.
  let posted = -Infinity;
  const POSTED_MS = 250;
  addEventListener('message', () => (posted = now()), true);
  if (typeof MessagePort === 'function') {
    MessagePort.prototype.postMessage = new Proxy(MessagePort.prototype.postMessage, {
      apply(target, self, args) {
        posted = now();
        return Reflect.apply(target, self, args);
      },
    });
  }
  const wakes = (horizon) => {
    const t = now();
    const reasons = new Set();
    for (const [id, due] of later) {
      if (strings.has(id) && due < t) {
        forget(id);
        continue;
      }
      if (due <= t + horizon) reasons.add('timeout');
    }
    for (const period of intervals.values()) if (period <= horizon) reasons.add('interval');
    if (frames.size) reasons.add('animation-frame');
    if (idles.size) reasons.add('idle');
    if (requests) reasons.add('request');
    if (t - posted < POSTED_MS) reasons.add('message');
    if (typeof navigator === 'object' && navigator.serviceWorker && navigator.serviceWorker.controller) {
      reasons.add('worker');
    }
    for (const [reason, open, ref] of opened) {
      const made = ref.deref();
      if (made && open(made)) reasons.add(reason);
    }
    return [...reasons].sort();
  };
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
  const fromTheStart = !document.documentElement;
  const sizeWatchers = new Set();
  const noting = (reason, wanted) => (target) => new Proxy(target, {
    apply(fn, self, args) {
      if (wanted(args)) sizeWatchers.add(reason);
      return Reflect.apply(fn, self, args);
    },
  });
  // addEventListener(type) and the on<type> handler of one interface's prototype.
  const watchListeners = (proto, type, reason) => {
    if (!proto) return;
    const add = noting(reason, (args) => String(args[0]) === type);
    Object.defineProperty(proto, 'addEventListener', {
      configurable: true, writable: true, value: add(proto.addEventListener),
    });
    const handler = Object.getOwnPropertyDescriptor(proto, `on${type}`);
    if (handler && handler.set) {
      Object.defineProperty(proto, `on${type}`, {...handler, set: noting(reason, (args) => Boolean(args[0]))(handler.set)});
    }
  };
  if (typeof ResizeObserver === 'function') {
    globalThis.ResizeObserver = new Proxy(ResizeObserver, {
      construct(target, args, newTarget) {
        sizeWatchers.add('resize-observer');
        return Reflect.construct(target, args, newTarget);
      },
    });
  }
  if (typeof MediaQueryList === 'function') {
    watchListeners(MediaQueryList.prototype, 'change', 'media-query');
    const legacy = MediaQueryList.prototype.addListener;
    if (typeof legacy === 'function') MediaQueryList.prototype.addListener = noting('media-query', (args) => Boolean(args[0]))(legacy);
  }
  if (typeof VisualViewport === 'function') watchListeners(VisualViewport.prototype, 'resize', 'visual-viewport');
  const sizeWakes = () => {
    if (!fromTheStart) return null;
    const reasons = new Set(sizeWatchers);
    if (frames.size) reasons.add('animation-frame');
    if (document.querySelector('iframe, frame, object, embed')) reasons.add('frame');
    return [...reasons].sort();
  };
  new MutationObserver(touch).observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    characterData: true,
  });
  Object.defineProperty(globalThis, Symbol.for('a11y.wakes'), {value: wakes});
  Object.defineProperty(globalThis, Symbol.for('a11y.sizeWatchers'), {value: sizeWakes});
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
