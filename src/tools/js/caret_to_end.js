// Function expression (this = element): focuses it and puts the caret at the end; returns false when the field has no selection API.
// Fails when focus went elsewhere, so typing would not land in the field; run on the element through element.page_function (which provides fail and deepActive).
/* global fail, deepActive */
function () {
  this.focus();
  const a = deepActive();
  if (a !== this && !this.contains(a) && !(this.shadowRoot && this.shadowRoot.contains(a)))
    fail('invalid_arguments', 'could not take focus, so typing would go elsewhere');
  if (this.localName !== 'input' && this.localName !== 'textarea') {
    const range = document.createRange();
    range.selectNodeContents(this);
    range.collapse(false);
    const sel = getSelection(); sel.removeAllRanges(); sel.addRange(range);
    return true;
  }
  try { const n = this.value.length; this.setSelectionRange(n, n); return true; } catch { return false; }
}
