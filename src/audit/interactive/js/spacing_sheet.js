// Function expression (on): puts WCAG 1.4.12's text spacing on the page again (on true), as text_layout.js's 'spacing' mode applied it while it measured (the same rules), or takes it off (on false); returns whether the page has it now.
// For a11y-text-spacing's state shot: the measurement removes its own sheet at once, so a
// finding's screenshot needs the spacing put back for the time of the shot.
function (on) {
  const MARK = 'text-spacing-shot';
  for (const old of document.querySelectorAll(`style[data-a11y-probe="${MARK}"]`)) old.remove();
  if (!on) return false;
  const sheet = document.createElement('style');
  sheet.textContent = '* { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important; }'
    + ' p { margin-bottom: 2em !important; }';
  sheet.setAttribute('data-a11y-probe', MARK);
  (document.head || document.documentElement).appendChild(sheet);
  void document.documentElement.offsetHeight;
  return true;
}
