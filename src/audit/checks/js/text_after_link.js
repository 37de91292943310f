// Function expression (node): the text right after a link in its block, about 60 characters at
// most, with the alternative text of images in it: where a page says what a link opens
// ("Annual report (PDF, 2 MB)", "Timetable (opens in a new tab)"). It stops at the next link
// and at anything that starts another block or line.
(function (node) {
  let out = '';
  for (let n = node.nextSibling; n && out.length < 60; n = n.nextSibling) {
    if (n.nodeType === Node.ELEMENT_NODE && n.matches('a[href], p, div, li, ul, ol, table, br')) break;
    out += n.textContent || '';
    if (n.nodeType === Node.ELEMENT_NODE && n.localName === 'img') out += ' ' + (n.getAttribute('alt') || '');
  }
  return out;
})
