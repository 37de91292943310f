// Function expression (check, timeout ms, interval ms): calls check() until it returns {done} or {fatal}, or the deadline passes; returns its last result ({timedOut: true} added then).
// check is a function source given in place, not JSON: see wait.poll_in_page.
async (check, timeoutMs, intervalMs) => {
  const deadline = performance.now() + timeoutMs;
  while (true) {
    const r = await check();
    if (r.done || r.fatal) return r;
    if (performance.now() >= deadline) return Object.assign(r, {timedOut: true});
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
