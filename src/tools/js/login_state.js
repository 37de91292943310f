// Function expression (token, password selector, success selector): returns the page's login state {url, same, password, success, errors, invalid} after a submit.
// same: the document still holds the token (no new page loaded); errors: visible error texts;
// invalid: fields the browser's own validation blocks.
(token, passwordSelector, successSelector) => {
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const visible = (el) => {
    if (el.checkVisibility && !el.checkVisibility({visibilityProperty: true})) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const all = (sel) => { try { return [...document.querySelectorAll(sel)]; } catch { return []; } };
  const same = window.__a11yLoginToken === token;
  const errors = [];
  const add = (t) => { t = norm(t); if (t && t.length <= 300 && !errors.includes(t)) errors.push(t); };
  const ERRORS = '[role=alert], [aria-live=assertive], .error, .errors, .error-message, .alert-danger, ' +
    '.alert-error, .invalid-feedback, .form-error, .field-error, .notification.is-danger, [data-error]';
  for (const e of all(ERRORS)) if (visible(e)) add(e.innerText);
  for (const field of all('[aria-invalid=true]')) {
    const ids = (field.getAttribute('aria-errormessage') || field.getAttribute('aria-describedby') || '').split(/\s+/);
    for (const id of ids) { const n = id && document.getElementById(id); if (n && visible(n)) add(n.innerText); }
  }
  const invalid = same ? all('form :invalid').filter((f) => f.matches('input, select, textarea'))
    .map((f) => (f.name || f.id || f.type) + ': ' + f.validationMessage) : [];
  return {
    url: location.href,
    same,
    password: all(passwordSelector).some(visible),
    success: successSelector ? all(successSelector).some(visible) : false,
    errors: errors.slice(0, 5),
    invalid: invalid.slice(0, 5),
  };
}
