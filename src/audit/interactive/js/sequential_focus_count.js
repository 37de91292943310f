/* global a11yProbe */
// Function expression (): how many rendered, enabled elements of the document are in sequential focus order (tabindex 0 or more, or natively focusable).
function () {
  const natively = 'a[href], area[href], button, input:not([type="hidden"]), select, textarea, summary, iframe, [contenteditable]:not([contenteditable="false"]), audio[controls], video[controls], [tabindex]';
  let count = 0;
  for (const el of document.querySelectorAll(natively)) {
    if (el.tabIndex < 0 || el.disabled || el.closest('[inert]')) continue;
    if (a11yProbe.isRendered(el)) count += 1;
  }
  return count;
}
