// Function expression (this = checkable): returns what to click to toggle it: null for itself, or a visible <label> of it (scrolled into view).
// A label when the input is hidden or covered by its label's own decoration (the toggle-switch
// pattern); run on the element through element.page_function (which provides fail and deepActive).
/* global fail */
function () {
  const visible = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0
    && (!e.checkVisibility || e.checkVisibility({visibilityProperty: true})); };
  const input = this.localName === 'label' ? this.control : this;
  const labels = [...((input && input.labels) || [])];
  if (visible(this)) {
    this.scrollIntoView({block: 'center', inline: 'center'});
    const r = this.getBoundingClientRect();
    const hit = this.ownerDocument.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const cover = hit && hit !== this && !this.contains(hit) ? labels.find((l) => l.contains(hit)) : null;
    return cover || null;
  }
  for (const l of labels) {
    if (visible(l)) { l.scrollIntoView({block: 'center', inline: 'center'}); return l; }
  }
  fail('timeout', 'is not visible and has no visible label to click');
}
