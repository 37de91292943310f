// Function expression (this = element): returns {kind, checked, mixed} of a checkbox, radio, role=checkbox/radio/switch or the <label> of one; fails for anything else.
// What checked means to element_check/uncheck/is_checked; run on the element through element.page_function (which provides fail and deepActive).
/* global fail */
function () {
  const ROLES = ['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio'];
  const kindOf = (el) => {
    if (el.localName === 'input' && (el.type === 'checkbox' || el.type === 'radio')) return el.type;
    const role = (el.getAttribute('role') || '').trim().split(/\s+/)[0];
    return ROLES.includes(role) ? role : null;
  };
  let el = this;
  if (!kindOf(el) && el.localName === 'label' && el.control && kindOf(el.control)) el = el.control;
  const kind = kindOf(el);
  if (!kind) fail('invalid_arguments', `is a <${this.localName}>, not a checkbox, radio or switch `
    + '(nor an element with role=checkbox/radio/switch); use element_click for other controls');
  const native = el.localName === 'input';
  return {kind, checked: native ? el.checked : el.getAttribute('aria-checked') === 'true',
          mixed: native ? el.indeterminate : el.getAttribute('aria-checked') === 'mixed'};
}
