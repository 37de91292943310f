// Function expression (this = element): focuses it; returns '' when focus landed in it, else a description of what holds focus.
// Run on the element through element.page_function (which provides fail and deepActive).
/* global deepActive */
function () {
  this.focus();
  const a = deepActive();
  if (a === this || this.contains(a) || (this.shadowRoot && this.shadowRoot.contains(a))) return '';
  return a ? a.localName + (a.id ? '#' + a.id : '') : 'nothing';
}
