// Function expression (this = element): returns the value of an input, textarea, select, contenteditable or value-bearing element; fails for others.
// Run on the element through element.page_function (which provides fail and deepActive).
/* global fail */
function () {
  if (this.localName === 'input' || this.localName === 'textarea' || this.localName === 'select') return this.value;
  if (this.isContentEditable) return this.innerText;
  if ('value' in this && this.value !== undefined && this.value !== null) return String(this.value);
  fail('invalid_arguments', `is a <${this.localName}>, which has no value; use element_get_text`);
}
