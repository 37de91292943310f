// Function expression (file count; this = element): returns nothing; fails unless it is an enabled <input type=file> that takes that many files.
// DOM.setFileInputFiles on anything else can kill the tab; run on the element through element.page_function (which provides fail and deepActive).
/* global fail */
function (count) {
  if (!(this.localName === 'input' && (this.getAttribute('type') || '').toLowerCase() === 'file')) {
    const inputs = document.querySelectorAll('input[type=file]').length;
    fail('invalid_arguments', `is a <${this.localName}>, not an <input type=file>; element_set_files only sets the files `
      + 'of a file input (it never opens a file chooser). ' + (inputs ? `This page has ${inputs} file input(s), often `
      + "hidden: try the selector 'input[type=file]'." : 'This frame has no file input.'));
  }
  if (count > 1 && !this.multiple) fail('invalid_arguments', `takes one file (no multiple attribute) but ${count} were given`);
  if (this.disabled) fail('invalid_arguments', 'is disabled');
}
