/* global a11yProbe */
// Function expression (): the document's title as browsers show it ({title, url, target, html} of the title element that gives it), or null when it has none.
function () {
  const element = document.querySelector('title');
  if (!element) return null;
  return {title: document.title, url: location.href, ...a11yProbe.describe(element)};
}
