// Function expression (node), the axe check of a11y-asterisk-required, run on a form field
// whose label shows an asterisk: returns false when the asterisk is the only sign that the
// field is required: the field has neither the required attribute nor aria-required="true",
// the label carries no word for it (visible or not), and no text of the page says what the
// asterisk means (a word for "required" near an asterisk, or a line that starts with one, as
// a footnote does); true otherwise.
/* global axe */
(function (node) {
  if (node.required || (node.getAttribute('aria-required') || '').trim().toLowerCase() === 'true') return true;
  const MEANING = /\b(?:required|mandatory|compulsory|obligatory|must be (?:filled|completed|answered))\b/i;
  const clean = (value) => (value || '').replace(/\s+/g, ' ').trim();
  const labels = Array.from(node.labels || []);
  const root = node.getRootNode();
  const ids = clean(node.getAttribute('aria-labelledby')).split(' ').filter(Boolean);
  const named = labels.concat(ids.map((id) => (root.getElementById ? root.getElementById(id) : null)).filter(Boolean));
  const spoken = named.map((el) => el.textContent).join(' ') + ' ' + (node.getAttribute('aria-label') || '')
    + ' ' + named.flatMap((el) => Array.from(el.querySelectorAll('[title], [aria-label]')))
      .map((el) => `${el.getAttribute('title') || ''} ${el.getAttribute('aria-label') || ''}`).join(' ');
  if (MEANING.test(spoken)) return true;
  // A legend of the asterisk anywhere on the page: "* required", "Fields marked * are mandatory".
  const cache = axe._cache.get('a11y-asterisk-required', () => new Map());
  const doc = node.ownerDocument;
  if (!cache.has(doc)) {
    const body = doc.body ? doc.body.innerText : '';
    // A line of its own that starts with an asterisk ("* prices before tax") says what the
    // asterisk means, even if it means something else: then it is no sign of "required".
    const labelled = new Set(Array.from(doc.querySelectorAll('label')).map((label) => clean(label.innerText)));
    const legend = body.split('\n').map(clean).some((line) => /^\*\s*\p{L}/u.test(line) && !labelled.has(line));
    const explained = legend || /\*[^.!?\n]{0,60}\b(?:required|mandatory|compulsory|obligatory|must)\b/i.test(body)
      || /\b(?:required|mandatory|compulsory|obligatory)\b[^.!?\n]{0,60}\*/i.test(body)
      || Array.from(doc.querySelectorAll('[title]')).some(
        (el) => clean(el.textContent) === '*' && MEANING.test(el.getAttribute('title')),
      );
    cache.set(doc, explained);
  }
  return cache.get(doc);
})
