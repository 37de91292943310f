// Function expression (part, textAfter), called once when the checks are configured (textAfter is
// text_after_link.js, for the evaluate): returns the matches
// (node, virtualNode) or the evaluate (node, options, virtualNode) of a11y-link-file-type. The
// matches take an exposed link whose address's path ends in the extension of a document,
// archive, audio or video file; the evaluate answers undefined when neither the link's name,
// its description, its title, its type nor the text just after it names that kind of file,
// true when one does.
/* global axe */
(function (part, textAfter) {
  const { dom, text } = axe.commons;
  // Extension -> [what to call it, words that say it].
  const KINDS = [
    [/^pdf$/, 'PDF', /\bpdf\b|portable document/i],
    [/^docx?$|^dotx?$/, 'Word', /\bdocx?\b|\bword\b|\bms ?word\b/i],
    [/^xlsx?$|^xlsm$/, 'Excel', /\bxlsx?\b|\bexcel\b|spreadsheet/i],
    [/^pptx?$|^ppsx?$/, 'PowerPoint', /\bpptx?\b|powerpoint|slides|presentation/i],
    [/^od[tspg]$/, 'OpenDocument', /\bod[tspg]\b|opendocument|libreoffice|openoffice/i],
    [/^rtf$/, 'RTF', /\brtf\b|rich text/i],
    [/^epub$|^mobi$/, 'e-book', /\bepub\b|\bmobi\b|e-?book/i],
    [/^zip$|^7z$|^rar$|^tar$|^gz$|^tgz$/, 'archive', /\bzip\b|\b7z\b|\brar\b|\btar\b|\bgz\b|archive|compressed/i],
    [/^mp3$|^wav$|^m4a$|^aac$|^flac$|^oga$|^opus$|^wma$/, 'audio',
      /\bmp3\b|\bwav\b|\bm4a\b|\baac\b|\bflac\b|\bogg\b|\bopus\b|audio|sound|podcast|recording|listen/i],
    [/^mp4$|^m4v$|^mov$|^webm$|^avi$|^mkv$|^wmv$|^ogv$|^mpe?g$/, 'video',
      /\bmp4\b|\bm4v\b|\bmov\b|\bwebm\b|\bavi\b|\bmkv\b|\bwmv\b|\bmpe?g\b|video|film|movie|watch/i],
  ];
  const kindOf = (node) => {
    const href = (node.getAttribute('href') || '').trim();
    if (!href || /^(?:javascript|mailto|tel|data):/i.test(href)) return null;
    let path;
    try {
      path = new URL(href, node.baseURI).pathname;
    } catch {
      return null;
    }
    const extension = (path.match(/\.([a-z0-9]{2,4})$/i) || [])[1];
    if (!extension) return null;
    return KINDS.find(([ext]) => ext.test(extension.toLowerCase())) || null;
  };
  const matches = function (node, virtualNode) {
    return node.localName === 'a' && kindOf(node) !== null && dom.isVisibleToScreenReaders(virtualNode) &&
      text.accessibleTextVirtual(virtualNode).trim() !== '';
  };
  const evaluate = function (node, options, virtualNode) {
    const kind = kindOf(node);
    if (!kind) return true;
    const root = node.getRootNode();
    const described = (node.getAttribute('aria-describedby') || '').split(/\s+/).filter(Boolean)
      .map((id) => (root.getElementById ? root.getElementById(id) : null)).filter(Boolean)
      .map((el) => el.textContent).join(' ');
    const told = [text.accessibleTextVirtual(virtualNode), node.getAttribute('title') || '', described,
      node.getAttribute('type') || '', textAfter(node)].join(' ');
    if (kind[2].test(told)) return true;
    this.data({ kind: kind[1] });
    return undefined;
  };
  return part === 'matches' ? matches : evaluate;
})
