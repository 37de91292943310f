// Function expression (source): appends an inline <script> with the source; returns {ran, thrown}: ran is false when the page's CSP blocked it.
// A marker appended after the source tells a script that ran from a blocked one; an error
// listener catches what the script threw.
(source) => {
  const el = document.createElement('script');
  el.textContent = source + '\n;document.currentScript && (document.currentScript.dataset.a11yRan = "1");';
  let thrown = null;
  const onError = (e) => { thrown = e.error ? String(e.error && e.error.stack || e.error) : e.message; };
  window.addEventListener('error', onError);
  try { (document.head || document.documentElement).appendChild(el); }
  finally { window.removeEventListener('error', onError); }
  const ran = el.dataset.a11yRan === '1';
  delete el.dataset.a11yRan;
  el.textContent = source;
  return {ran, thrown};
}
