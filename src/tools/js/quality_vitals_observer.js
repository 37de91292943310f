// Whole script, an init script: records LCP (time and element), CLS and long tasks in window.__a11yVitals from the start of the load; returns nothing.
(() => {
  const v = window.__a11yVitals = {lcp: null, lcpElement: null, cls: 0, longTasks: []};
  const describe = (el) => el ? el.localName + (el.id ? '#' + el.id : '') : null;
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) { v.lcp = e.startTime; v.lcpElement = describe(e.element); }
    }).observe({type: 'largest-contentful-paint', buffered: true});
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (!e.hadRecentInput) v.cls += e.value;
    }).observe({type: 'layout-shift', buffered: true});
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) v.longTasks.push([e.startTime, e.duration]);
    }).observe({type: 'longtask', buffered: true});
  } catch { /* an entry type this browser does not support */ }
})();
