// Function expression (value; this = field): returns {mode, before}: mode 'type' (text selected, ready for insertText) or 'set' (date, colour… set in the page).
// Refuses controls that hold no text; run on the element through element.page_function (which provides fail and deepActive).
/* global fail */
function (value) {
  const SET_DIRECTLY = {date: '2024-05-31', time: '13:45', 'datetime-local': '2024-05-31T13:45',
    month: '2024-05', week: '2024-W22', color: '#ff8800', range: 'a number within min..max'};
  const tag = this.localName;
  const type = tag === 'input' ? (this.getAttribute('type') || 'text').toLowerCase() : '';
  if (tag === 'select') fail('invalid_arguments', 'is a <select>: use element_select');
  if (type === 'checkbox' || type === 'radio') fail('invalid_arguments', `is a ${type}: use element_check or element_uncheck`);
  if (type === 'file') fail('invalid_arguments', 'is a file input: use element_set_files');
  if (['button', 'submit', 'reset', 'image', 'hidden'].includes(type)) fail('invalid_arguments', `is an input of type ${type}, which holds no text`);
  const control = tag === 'input' || tag === 'textarea';
  const before = control ? this.value : this.innerText;
  if (type in SET_DIRECTLY) {
    this.focus();
    this.value = value;
    if (this.value.toLowerCase() !== value.toLowerCase()) {
      this.value = before;
      fail('invalid_arguments', `cannot hold ${JSON.stringify(value)}: an input of type ${type} takes a value like ${SET_DIRECTLY[type]}`);
    }
    this.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
    this.dispatchEvent(new Event('change', {bubbles: true}));
    return {mode: 'set', before};
  }
  if (type === 'number' && value.trim() !== '' && !Number.isFinite(Number(value)))
    fail('invalid_arguments', `is a number input and ${JSON.stringify(value)} is not a number`);
  this.focus();
  if (control) this.select();
  else {
    const range = document.createRange();
    range.selectNodeContents(this);
    const sel = getSelection(); sel.removeAllRanges(); sel.addRange(range);
  }
  return {mode: 'type', before};
}
