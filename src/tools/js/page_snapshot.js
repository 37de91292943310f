// Function expression (max characters): returns the page as a static document {url, title, html}: scripts and inline handlers removed, form state in attributes, a <base> added.
(maxChars) => {
  const root = document.documentElement;
  if (!root) return {url: location.href, title: document.title, html: ''};
  const copy = root.cloneNode(true);
  const live = root.querySelectorAll('input, textarea, select');
  const cloned = copy.querySelectorAll('input, textarea, select');
  live.forEach((el, i) => {
    const twin = cloned[i];
    if (!twin) return;
    if (el.type === 'checkbox' || el.type === 'radio') { if (el.checked) twin.setAttribute('checked', ''); else twin.removeAttribute('checked'); }
    else if (el.localName === 'textarea') twin.textContent = el.value;
    else if (el.localName === 'select') [...el.options].forEach((o, j) => { if (o.selected) twin.options[j].setAttribute('selected', ''); });
    else if (el.type !== 'password' && el.type !== 'file') twin.setAttribute('value', el.value);
  });
  copy.querySelectorAll('script').forEach((el) => el.remove());
  copy.querySelectorAll('*').forEach((el) => [...el.attributes].forEach((a) => {
    if (/^on/i.test(a.name)) el.removeAttribute(a.name);
  }));
  const head = copy.querySelector('head');
  if (head) { const base = document.createElement('base'); base.href = location.href; head.prepend(base); }
  return {url: location.href, title: document.title, html: copy.outerHTML.slice(0, maxChars)};
}
