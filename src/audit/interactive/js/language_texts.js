/* global a11yProbe */
// Function expression (limits): the page's text grouped by the lang it inherits, for language identification: {scopes: [{lang, root, target, html, pieces: [{text, words, name, target?, html?}]}]}: the html element's scope (its title included) when it has a lang, then each element in body with a lang attribute; pieces are blocks' text (through inline elements) and text alternatives; subtrees with a lang of their own are left to their own scope, code and hidden content left out; bounded by limits {chars, scopes, nodes, names, passageWords, passages}.
// One pass over the text nodes (a TreeWalker), work cached per parent element: visiting every
// element from this world costs far more on large pages.
function (limits) {
  // Content that is not prose in a human language, or not text at all.
  const SKIP = 'script, style, noscript, template, pre, code, kbd, samp, var, textarea, select, math, svg, '
    + '[translate="no"]';
  // Elements that continue the text of the block around them.
  const INLINE = new Set(['a', 'abbr', 'b', 'bdi', 'bdo', 'big', 'br', 'cite', 'data', 'del', 'dfn', 'em', 'font', 'i',
    'img', 'input', 'ins', 'label', 'mark', 'q', 's', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'tt', 'u', 'wbr',
    'button', 'output', 'meter', 'progress', 'slot', 'area', 'map', 'picture', 'ruby', 'rt', 'rp', 'nobr']);
  const WORD = /[\p{L}\p{M}]+/gu;
  const LETTER = /\p{L}/u;
  const root = document.documentElement;
  const body = document.body;
  const clean = (text) => text.replace(/\s+/g, ' ').trim();

  // A scope per element whose lang its text inherits; text whose nearest lang is outside body
  // (on head, say) or past the limit belongs to none.
  const scopes = new Map();
  const rootLang = root.hasAttribute('lang') ? root.getAttribute('lang').trim() : null;
  if (rootLang !== null) scopes.set(root, {el: root, lang: rootLang, root: true, blocks: new Map(), chars: 0});
  if (body) {
    for (const el of body.querySelectorAll('[lang]')) {
      if (scopes.size >= limits.scopes + 1) break;
      if (el.closest(SKIP)) continue;
      scopes.set(el, {el, lang: el.getAttribute('lang').trim(), root: false, blocks: new Map(), chars: 0});
    }
    if (body.hasAttribute('lang') && !scopes.has(body) && scopes.size < limits.scopes + 1) {
      scopes.set(body, {el: body, lang: body.getAttribute('lang').trim(), root: false, blocks: new Map(), chars: 0});
    }
  }
  const scopeOf = (el) => {
    const owner = el.closest('[lang]');
    return owner ? scopes.get(owner) || null : null;
  };
  const blockOf = (el, scope) => {
    let block = el;
    while (block !== scope.el && INLINE.has(block.localName) && block.parentElement) block = block.parentElement;
    return block;
  };
  const add = (scope, key, el, name, text) => {
    if (!scope || !text) return;
    const room = limits.chars - scope.chars;
    if (room <= 0) return;
    const kept = text.length > room ? text.slice(0, room) : text;
    scope.chars += kept.length;
    let block = scope.blocks.get(key);
    if (!block) {
      block = {el, name, parts: []};
      scope.blocks.set(key, block);
    }
    block.parts.push(kept);
  };

  if (scopes.size && body) {
    const top = scopes.get(root);
    if (top) add(top, 'title', root, true, clean(document.title || ''));

    // Visible text (and text in the accessibility tree: opacity and clipping keep it there).
    const parents = new Map();
    const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
    const open = [...scopes.values()];
    let nodes = 0;
    while (walker.nextNode() && ++nodes <= limits.nodes) {
      const node = walker.currentNode;
      if (!LETTER.test(node.data)) continue;
      const parent = node.parentElement;
      if (!parent) continue;
      let seen = parents.get(parent);
      if (seen === undefined) {
        seen = null;
        const scope = scopeOf(parent);
        if (scope && scope.chars < limits.chars && !parent.closest(SKIP)
            && (!parent.checkVisibility || parent.checkVisibility({visibilityProperty: true, checkVisibilityCSS: true}))) {
          seen = {scope, block: blockOf(parent, scope)};
        }
        parents.set(parent, seen);
      }
      if (!seen) continue;
      add(seen.scope, seen.block, seen.block, false, node.data);
      if (seen.scope.chars >= limits.chars && open.every((s) => s.chars >= limits.chars)) break; // all full
    }

    // Text alternatives and names: they inherit the language of the element they name, even
    // when they are taken from a hidden element (aria-labelledby).
    const named = body.querySelectorAll('img[alt], area[alt], input[type="image" i][alt], input[type="button" i], '
      + 'input[type="submit" i], input[type="reset" i], [aria-label], [aria-labelledby]');
    let names = 0;
    for (const el of named) {
      if (++names > limits.names) break;
      const scope = scopeOf(el);
      if (!scope || el.closest(SKIP)) continue;
      if (el.checkVisibility && !el.checkVisibility({visibilityProperty: true, checkVisibilityCSS: true})) continue;
      let text = '';
      const labelledby = (el.getAttribute('aria-labelledby') || '').trim();
      if (labelledby) {
        text = labelledby.split(/\s+/).map((id) => {
          const ref = document.getElementById(id);
          return ref ? ref.textContent : '';
        }).join(' ');
      } else if (el.hasAttribute('aria-label')) {
        text = el.getAttribute('aria-label');
      } else if (el.hasAttribute('alt')) {
        text = el.getAttribute('alt');
      } else if (el.localName === 'input') {
        text = el.value;
      }
      add(scope, el, el, true, clean(text || ''));
    }
  }

  let described = 0;
  const out = [];
  for (const scope of scopes.values()) {
    const pieces = [];
    for (const block of scope.blocks.values()) {
      const text = clean(block.parts.join(' '));
      if (!LETTER.test(text)) continue;
      const words = (text.match(WORD) || []).length;
      const piece = {text, words, name: block.name};
      if (!block.name && words >= limits.passageWords && described < limits.passages) {
        described += 1;
        Object.assign(piece, a11yProbe.describe(block.el));
      }
      pieces.push(piece);
    }
    if (pieces.length) out.push({lang: scope.lang, root: scope.root, ...a11yProbe.describe(scope.el), pieces});
  }
  return {scopes: out};
}
