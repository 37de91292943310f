// Function expression (describe): installs window.__a11yPerf, which keeps each interaction of 16 ms or more from then on (the newest 1,000); returns nothing.
// Applied to describe_element_path.js, as an init script and once in the current document;
// the browser itself buffers only interactions of 104 ms and more.
(describe) => {
  if (window.__a11yPerf) return;
  const store = {events: []};
  Object.defineProperty(window, '__a11yPerf', {value: store, enumerable: false});
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (!e.interactionId) continue;
        store.events.push({interactionId: e.interactionId, name: e.name, startTime: e.startTime,
          duration: e.duration, processingStart: e.processingStart, processingEnd: e.processingEnd,
          target: describe(e.target)});
        if (store.events.length > 1000) store.events.shift();
      }
    }).observe({type: 'event', durationThreshold: 16, buffered: true});
  } catch { /* Event Timing unsupported */ }
}
