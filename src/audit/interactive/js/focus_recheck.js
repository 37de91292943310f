/* global a11yProbe */
// Function expression (step, key): one step of trying again an element on which js/focus_looks.js saw focus show nothing, with the page's own timers let run between the steps (Python waits on the readiness tracker): 'changed': whether the document changed by itself since those readings (and stop watching it; when it did, take focus off the page); 'focus': focus element `key` as the keyboard does, true when it kept focus; 'read': read how it, what is around it and what changed since it got focus look, then blur it; 'compare': whether anything read then looks different now. null when there is nothing to try.
// Uses the readers focus_looks.js left in its state, so both judge alike.
function (step, key) {
  const recheck = globalThis[Symbol.for('a11y.focusRecheck')];
  if (!recheck) return null;
  const stopWatching = () => {
    if (recheck.watch) recheck.watch.disconnect();
    recheck.watch = null;
  };
  if (step === 'changed') {
    if (recheck.after) recheck.after.disconnect();
    recheck.after = null;
    // Each element is to receive focus afresh: none may have it already.
    const active = a11yProbe.deepActive();
    if (recheck.changed && active && active.blur) active.blur();
    return recheck.changed;
  }
  const el = recheck.elements.get(key);
  if (!el || !el.isConnected) return null;
  if (step === 'focus') {
    stopWatching();
    recheck.records = [];
    recheck.watch = new MutationObserver((records) => { recheck.records.push(...records.slice(0, 100)); });
    recheck.watch.observe(document, {attributes: true, childList: true, subtree: true, characterData: true});
    el.focus({preventScroll: true, focusVisible: true});
    return a11yProbe.deepActive() === el;
  }
  if (step === 'read') {
    if (!recheck.watch || a11yProbe.deepActive() !== el) {
      stopWatching();
      return false;
    }
    recheck.settle();
    const changed = [...recheck.records, ...recheck.watch.takeRecords()]
      .map((record) => (record.target.nodeType === Node.ELEMENT_NODE ? record.target : record.target.parentElement))
      .filter(Boolean);
    stopWatching();
    const {near, close} = recheck.around(el);
    const watched = [...new Set([...near, ...changed.slice(0, recheck.touchedLimit)])];
    recheck.reading = {watched, close, seen: watched.map((node, i) => recheck.look(node, i < close))};
    el.blur();
    return true;
  }
  if (step === 'compare') {
    const reading = recheck.reading;
    recheck.reading = null;
    if (!reading) return null;
    recheck.settle();
    return reading.watched.some((node, i) => recheck.look(node, i < reading.close) !== reading.seen[i]);
  }
  return null;
}
