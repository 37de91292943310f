// Function expression (message, element id): shows the pause overlay; returns a promise of "button" or "key", whichever handed control back.
// Runs in an isolated world, inside an open shadow root, and re-attaches itself if the page
// re-renders <body>, until it is ended: by the person, or by human_overlay_end.js (a timeout),
// which calls the end this registers in the world (an overlay only removed would come back).
(message, id) => new Promise((resolve) => {
  const key = id + ':end';
  if (typeof globalThis[key] === 'function') globalThis[key]('replaced');
  const old = document.getElementById(id);
  if (old) old.remove();
  const host = document.createElement('div');
  host.id = id;
  Object.assign(host.style, {position: 'fixed', right: '16px', bottom: '16px', zIndex: '2147483647'});
  const root = host.attachShadow({mode: 'open'});
  const box = document.createElement('div');
  Object.assign(box.style, {font: '14px/1.4 system-ui, sans-serif', background: '#1f2937', color: '#fff',
    padding: '12px 14px', borderRadius: '8px', maxWidth: '360px', boxShadow: '0 4px 16px rgba(0,0,0,.35)'});
  box.setAttribute('role', 'dialog');
  box.setAttribute('aria-label', 'Automation paused');
  const text = document.createElement('p');
  text.textContent = message;
  Object.assign(text.style, {margin: '0 0 8px'});
  const hint = document.createElement('p');
  hint.textContent = 'The automation is paused. Click Done or press Ctrl+Shift+Enter to hand back control.';
  Object.assign(hint.style, {margin: '0 0 10px', opacity: '.8', fontSize: '12px'});
  const done = document.createElement('button');
  done.textContent = 'Done';
  done.dataset.done = '';
  Object.assign(done.style, {font: 'inherit', padding: '4px 14px', cursor: 'pointer'});
  box.append(text, hint, done);
  root.append(box);
  const place = () => { if (!host.isConnected) (document.body || document.documentElement).appendChild(host); };
  place();
  const keeper = setInterval(place, 500);
  const onKey = (e) => {
    if (e.key === 'Enter' && e.ctrlKey && e.shiftKey) { e.preventDefault(); e.stopPropagation(); finish('key'); }
  };
  const finish = (how) => {
    if (globalThis[key] === finish) delete globalThis[key];
    clearInterval(keeper);
    window.removeEventListener('keydown', onKey, true);
    host.remove();
    resolve(how);
  };
  globalThis[key] = finish;
  done.addEventListener('click', () => finish('button'));
  window.addEventListener('keydown', onKey, true);
})
