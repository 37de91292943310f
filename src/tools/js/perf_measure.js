// Function expression (describe): returns the page's Web Vitals (LCP, CLS, INP, navigation timing, long tasks) from its own PerformanceObserver buffers.
// Applied to describe_element_path.js; reads the interactions perf_interaction_recorder.js kept.
async (describe) => {

  const round = (v) => (typeof v === 'number' && isFinite(v)) ? Math.round(v * 10) / 10 : null;
  const observe = (type, extra) => new Promise((resolve) => {
    if (!PerformanceObserver.supportedEntryTypes.includes(type)) { resolve(null); return; }
    const seen = [];
    const po = new PerformanceObserver((list) => seen.push(...list.getEntries()));
    po.observe({type, buffered: true, ...(extra || {})});
    setTimeout(() => { seen.push(...po.takeRecords()); po.disconnect(); resolve(seen); }, 0);
  });
  const rect = (r) => r ? {x: r.x, y: r.y, width: r.width, height: r.height} : null;

  // Event Timing entries of an interaction are queued only once the frame after it has been
  // presented: on a busy machine a call right after a click would miss them. Wait for two
  // frames (bounded: a hidden page draws none) so the last interaction is counted.
  await Promise.race([
    new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0)))),
    new Promise((resolve) => setTimeout(resolve, 500)),
  ]);

  const lcps = await observe('largest-contentful-paint') || [];
  const last = lcps[lcps.length - 1];
  const lcp = last ? {
    time_ms: round(last.renderTime || last.loadTime || last.startTime),
    render_time_ms: round(last.renderTime), load_time_ms: round(last.loadTime),
    element: describe(last.element), size: last.size, url: last.url || null,
    id: last.id || null, candidates: lcps.length,
  } : null;

  const shifts = (await observe('layout-shift') || []).filter((e) => !e.hadRecentInput);
  let cls = 0, current = 0, windowStart = 0, previous = 0, win = [], worst = [];
  for (const e of shifts) {
    if (win.length && e.startTime - previous < 1000 && e.startTime - windowStart < 5000) {
      current += e.value; win.push(e);
    } else { current = e.value; windowStart = e.startTime; win = [e]; }
    previous = e.startTime;
    if (current > cls) { cls = current; worst = win.slice(); }
  }
  const shiftView = (e) => ({value: Math.round(e.value * 10000) / 10000, time_ms: round(e.startTime),
    sources: (e.sources || []).map((s) => ({element: describe(s.node),
      previous: rect(s.previousRect), current: rect(s.currentRect)}))});
  const contribution = {};
  for (const e of worst) for (const s of (e.sources || [])) {
    const key = describe(s.node) || '(removed element)';
    contribution[key] = (contribution[key] || 0) + e.value / Math.max(1, e.sources.length);
  }

  const recorded = (window.__a11yPerf && window.__a11yPerf.events) || [];
  const buffered = (await observe('event', {durationThreshold: 16}) || []).filter((e) => e.interactionId)
    .map((e) => ({interactionId: e.interactionId, name: e.name, startTime: e.startTime, duration: e.duration,
      processingStart: e.processingStart, processingEnd: e.processingEnd, target: describe(e.target)}));
  const firsts = (await observe('first-input') || []).map((e) => ({interactionId: e.interactionId, name: e.name,
    startTime: e.startTime, duration: e.duration, processingStart: e.processingStart,
    processingEnd: e.processingEnd, target: describe(e.target)}));
  // One interaction (a tap: pointerdown, pointerup, click) is several entries sharing an interactionId:
  // its duration is the longest entry; the entry that did the most handler work explains it.
  const byInteraction = new Map();
  for (const e of [...recorded, ...buffered, ...firsts]) {
    const key = e.interactionId || ('first-' + e.startTime);
    if (!byInteraction.has(key)) byInteraction.set(key, []);
    byInteraction.get(key).push(e);
  }
  const interactions = [...byInteraction.values()].map((entries) => ({
    duration: Math.max(...entries.map((e) => e.duration)),
    main: entries.reduce((a, b) => (b.processingEnd - b.processingStart) > (a.processingEnd - a.processingStart) ? b : a),
    target: (entries.find((e) => e.target) || {}).target || null,
  })).sort((a, b) => b.duration - a.duration);
  let inp = null, inpReason = null;
  if (interactions.length) {
    const pick = interactions[Math.min(interactions.length - 1, Math.floor(interactions.length / 50))];
    const m = pick.main;
    inp = {value_ms: round(pick.duration), event: m.name, element: m.target || pick.target,
      start_ms: round(m.startTime), input_delay_ms: round(m.processingStart - m.startTime),
      processing_ms: round(m.processingEnd - m.processingStart),
      presentation_delay_ms: round(m.startTime + m.duration - m.processingEnd),
      interaction_count: interactions.length, recorder_installed: !!window.__a11yPerf};
  } else {
    inpReason = 'no interactions were recorded on this page (click, tap or type first)';
  }

  const paints = Object.fromEntries(performance.getEntriesByType('paint').map((p) => [p.name, round(p.startTime)]));
  const tasks = await observe('longtask') || [];
  const fcp = paints['first-contentful-paint'];
  const tbt = tasks.filter((t) => fcp == null || t.startTime >= fcp)
    .reduce((sum, t) => sum + Math.max(0, t.duration - 50), 0);

  const n = performance.getEntriesByType('navigation')[0];
  const navigation = n ? {
    type: n.type, url: n.name, status: n.responseStatus || null, protocol: n.nextHopProtocol || null,
    redirect_count: n.redirectCount, ttfb_ms: round(n.responseStart),
    dns_ms: round(n.domainLookupEnd - n.domainLookupStart), connect_ms: round(n.connectEnd - n.connectStart),
    tls_ms: n.secureConnectionStart ? round(n.connectEnd - n.secureConnectionStart) : 0,
    request_ms: round(n.responseStart - n.requestStart), response_ms: round(n.responseEnd - n.responseStart),
    dom_interactive_ms: round(n.domInteractive), dom_content_loaded_ms: round(n.domContentLoadedEventEnd),
    load_ms: round(n.loadEventEnd), duration_ms: round(n.duration),
    transfer_size: n.transferSize, encoded_body_size: n.encodedBodySize, decoded_body_size: n.decodedBodySize,
    first_paint_ms: paints['first-paint'] ?? null, first_contentful_paint_ms: fcp ?? null,
  } : null;

  return {
    url: location.href, lcp, cls: Math.round(cls * 10000) / 10000,
    cls_elements: Object.entries(contribution).sort((a, b) => b[1] - a[1])
      .map(([element, value]) => ({element, value: Math.round(value * 10000) / 10000})),
    layout_shifts: shifts.slice().sort((a, b) => b.value - a.value).slice(0, 20).map(shiftView),
    inp, inp_reason: inpReason, navigation,
    long_tasks: {count: tasks.length, total_blocking_time_ms: round(tbt),
      longest_ms: round(tasks.reduce((m, t) => Math.max(m, t.duration), 0))},
  };
}
