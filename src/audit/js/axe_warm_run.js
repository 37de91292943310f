// Function expression (html), called in a throw-away isolated world of a spare page with axe
// loaded: replaces the document's markup with html and runs axe once over it, so the
// renderer has compiled axe's code; returns the number of violations.
/* global axe */
(function (html) {
  document.documentElement.innerHTML = html;
  return axe.run(document).then((r) => r.violations.length);
})
