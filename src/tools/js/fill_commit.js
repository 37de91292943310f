// Function expression (value before; this = field): returns the field's value after leaving and re-entering it, so the browser fires its own change event once.
// Focus stays on the field; run on the element through element.page_function (which provides fail and deepActive).
/* global deepActive */
function (before) {
  const control = this.localName === 'input' || this.localName === 'textarea';
  const now = control ? this.value : this.innerText;
  if (control && now !== before && deepActive() === this) { this.blur(); this.focus(); }
  return now;
}
