/* global a11yProbe */
// Function expression (limits): what a script of the page makes flash ({watched: [...]}). The interaction world reads the brightness of every element the page restyles twice within 300 ms, at each change (a11yProbe.restyled). Of those that are visible and of limits.area CSS px² or more (the root's and the body's area is the window's), each whose brightness changed by 0.1 or more at a rate of limits.minChanges a second is returned with a second of its history: when it has less, the call waits for the rest (limits.watchMs at most); a page whose scripts change nothing that fast returns at once, but for one that runs a short interval (limits.shortInterval) with a log younger than a second, which waits for that second first. Each: {label, ...describe, width, height, known, samples: [[ms, level]]}; when known is false, each level is how much of it shows.
function (limits) {
  const root = document.documentElement;
  const sizeOf = (el) => {
    if (el === root || el === document.body) return [innerWidth, innerHeight];
    const r = el.getBoundingClientRect();
    return [r.width, r.height];
  };
  const large = (el) => {
    const [width, height] = sizeOf(el);
    return el.isConnected && width * height >= limits.area && (el === root || !el.checkVisibility || el.checkVisibility());
  };
  const known = (samples) => samples.every((s) => s[3]);
  const levels = (samples) => samples.map((s) => (known(samples) ? s[1] : s[2]));
  const changes = (samples) => {
    const seen = levels(samples);
    return seen.filter((level, i) => i > 0 && Math.abs(level - seen[i - 1]) >= 0.1).length;
  };
  // The elements to report, and how long to wait for a second of their history.
  const pick = () => {
    const now = performance.now();
    let wait = 0;
    const picked = a11yProbe.restyled().watched.filter(({el, samples}) => {
      if (samples.length < 3 || !large(el)) return false;
      const span = Math.max(1, now - samples[0][0]);
      const fast = (changes(samples) * 1000) / span >= limits.minChanges;
      if (fast && span < 1000) wait = Math.max(wait, 1000 - span);
      return fast || span >= 1000;
    }).slice(0, limits.items).map(({el}) => el);
    return {picked, wait};
  };
  let {picked: candidates, wait} = pick();
  const report = () => {
    const history = new Map(a11yProbe.restyled().watched.map(({el, samples}) => [el, samples]));
    return {watched: candidates.map((el) => {
      const samples = history.get(el) || [];
      const [width, height] = sizeOf(el);
      const first = samples.length ? samples[0][0] : 0;
      const seen = levels(samples);
      return {
        label: a11yProbe.label(el), ...a11yProbe.describe(el), width: Math.round(width), height: Math.round(height),
        known: known(samples), samples: samples.map((s, i) => [Math.round(s[0] - first), seen[i]]),
      };
    })};
  };
  const later = (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, limits.watchMs)));
  // A page whose script runs an interval short enough to flash (limits.shortInterval, from the
  // readiness tracker) but whose log is younger than a second may not show it yet: its log is
  // given that second first. No other page waits here.
  const age = performance.now() - a11yProbe.restyled().startedAt;
  if (!candidates.length && limits.shortInterval && age < 1000) {
    return later(1000 - age).then(() => {
      ({picked: candidates, wait} = pick());
      return wait > 0 ? later(wait).then(report) : report();
    });
  }
  if (!candidates.length || wait <= 0) return report();
  return later(wait).then(report);
}
