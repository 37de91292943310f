/* global a11yProbe */
// Function expression (action): watches what key presses do to the page while no element has focus. 'start' begins (focus taken off every element); 'read' returns and forgets what each key pressed since did ({keys: {key: {changes: [signature], sync: [signature], focus, scroll}}, skipped: [key], background: [signature]}); 'rest' does the same and counts what follows as background until the next key; 'stop' ends the watch and returns the same.
// Each change is a signature (what changed, of which element) so that reactions every key has
// (a library noting that the keyboard is in use) can be told from those of one key. A change
// is the key's whose keydown came last before it (late ones too: a read does not end a key's
// time), and `sync` as well when it came while the page handled the key's keydown (before
// its keyup), when no timer of the page's own can have run; changes before any key are
// `background`. Focus moved and scrolling done by a key are put back at its keyup (before the
// page's keyup handlers), so the next key reaches the page with nothing focused; when the page
// moved focus later, the next key is stopped before the page sees it (it would go to the
// focused field) and `skipped`.
function (action) {
  const key = Symbol.for('a11y.shortcutWatch');
  let watch = globalThis[key];
  const sign = (record) => {
    const target = record.target.nodeType === 1 ? record.target : record.target.parentElement;
    const where = target ? a11yProbe.label(target) : '#text';
    if (record.type === 'attributes') return `${record.attributeName} of ${where}`;
    return `${record.type === 'childList' ? 'content' : 'text'} of ${where}`;
  };
  const entry = (name) => {
    if (!watch.keys[name]) watch.keys[name] = {changes: [], sync: [], focus: null, scroll: 0};
    return watch.keys[name];
  };
  const note = (records) => {
    for (const record of records) {
      const signature = sign(record);
      const lists = watch.current ? [entry(watch.current).changes] : [watch.background];
      if (watch.current && watch.handling) lists.push(entry(watch.current).sync);
      for (const list of lists) if (list.length < 50 && !list.includes(signature)) list.push(signature);
    }
  };
  // Focus and scrolling put back; the key pressed last credited with what they were.
  const settle = () => {
    const moved = a11yProbe.deepActive();
    const scrolled = Math.abs(scrollY - watch.scrollY) + Math.abs(scrollX - watch.scrollX);
    if (moved && moved.blur) moved.blur();
    if (scrolled) window.scrollTo(watch.scrollX, watch.scrollY);
    if (watch.current && (moved || scrolled)) {
      const last = entry(watch.current);
      if (moved) last.focus = a11yProbe.label(moved);
      last.scroll = Math.max(last.scroll, Math.round(scrolled));
    }
    return moved;
  };
  if (action === 'start' && !watch) {
    const active = a11yProbe.deepActive();
    if (active && active.blur) active.blur();
    watch = {keys: {}, skipped: [], background: [], current: null, handling: false, scrollX, scrollY};
    watch.observer = new MutationObserver(note);
    watch.observer.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
    watch.onKeydown = (event) => {
      if (event.repeat) return;
      note(watch.observer.takeRecords());
      if (settle()) {
        event.preventDefault();
        event.stopImmediatePropagation();
        watch.skipped.push(event.key);
        watch.current = null;
        return;
      }
      watch.current = event.key;
      watch.handling = true;
    };
    watch.onKeyup = () => {
      note(watch.observer.takeRecords());
      watch.handling = false;
      settle();
    };
    window.addEventListener('keydown', watch.onKeydown, true);
    window.addEventListener('keyup', watch.onKeyup, true);
    globalThis[key] = watch;
  }
  if (!watch) return {keys: {}, skipped: [], background: []};
  note(watch.observer.takeRecords());
  settle();
  const seen = {keys: watch.keys, skipped: watch.skipped, background: watch.background};
  watch.keys = {};
  watch.skipped = [];
  watch.background = [];
  if (action === 'rest') watch.current = null;
  if (action === 'stop') {
    watch.observer.disconnect();
    window.removeEventListener('keydown', watch.onKeydown, true);
    window.removeEventListener('keyup', watch.onKeyup, true);
    delete globalThis[key];
  }
  return seen;
}
