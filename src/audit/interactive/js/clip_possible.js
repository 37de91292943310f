// Function expression (): whether anything in the document could hide overflow at some window size, read from the styles alone (no layout): an author rule at any level (media, supports, layer, container, nesting, keyframes, imports) or an inline style that sets overflow hidden or clip, or through a variable; an open shadow root's sheets (a :host rule reaches the light DOM); a style sheet that cannot be read (cross-origin) or a custom element whose shadow root is closed, which may; and the two elements that clip their text by default (marquee, an object's fallback).
function () {
  const HIDES = /hidden|clip|var\(/;
  const PROPS = ['overflow', 'overflow-x', 'overflow-y', 'overflow-inline', 'overflow-block'];
  const hides = (style) => PROPS.some((p) => HIDES.test(style.getPropertyValue(p)));
  const seen = new Set();
  const rulesHide = (rules) => {
    for (const rule of rules) {
      if (rule.style && hides(rule.style)) return true;
      if (rule.styleSheet && sheetHides(rule.styleSheet)) return true;
      if (rule.cssRules && rulesHide(rule.cssRules)) return true;
    }
    return false;
  };
  const sheetHides = (sheet) => {
    if (seen.has(sheet)) return false;
    seen.add(sheet);
    let rules;
    try {
      rules = sheet.cssRules;
    } catch {
      return true;
    }
    return rulesHide(rules);
  };
  const sheetsHide = (root) => [...root.styleSheets, ...(root.adoptedStyleSheets || [])].some(sheetHides);
  if (document.querySelector('marquee, object') || sheetsHide(document)) return true;
  for (const el of document.querySelectorAll('[style]')) {
    if (hides(el.style)) return true;
  }
  for (const el of document.querySelectorAll('*')) {
    const root = el.shadowRoot;
    if (root ? sheetsHide(root) || [...root.querySelectorAll('[style]')].some((s) => hides(s.style)) : el.localName.includes('-')) {
      return true;
    }
  }
  return false;
}
