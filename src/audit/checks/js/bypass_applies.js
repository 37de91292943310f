// Function expression (node), the matches of a11y-bypass-reaches-main and of its techniques'
// checks (a11y-bypass-heading, -landmark, -skip-link, -collapsible): returns true for the
// top document's html element when the page has a repeated block (a navigation, banner,
// complementary or content-info landmark) in its body; frames are judged with their page.
/* global axe */
(function (node) {
  const body = node.ownerDocument.body;
  if (window.top !== window || !body) return false;
  const REPEATED = ['navigation', 'banner', 'complementary', 'contentinfo'];
  return Array.from(body.querySelectorAll('nav, header, aside, footer, [role]')).some((el) =>
    REPEATED.includes(axe.commons.aria.getRole(el)),
  );
})
