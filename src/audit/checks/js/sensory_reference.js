// Function expression (part), called once when the checks are configured: returns the matches
// (node) or the evaluate (node) of a11y-sensory-instructions. An instruction in English (a
// verb such as click, press, select, use, see, followed in its sentence by a reference) that
// points at something on the page by its colour, shape, size or place on screen ("the green
// button", "the round icon", "the link on the right") or by a sound ("when you hear the beep").
// The matches keep the blocks whose own text holds such a sentence; the evaluate fails one that
// names a button or a link only that way while the page shows two or more of them and the
// sentence quotes no name of a control of the page (then nothing else tells them apart), and
// asks about every other reference. Place above or below is not a sensory reference: read in
// order, it still holds.
/* global axe */
(function (part) {
  const COLOURS = 'red|green|blue|yellow|orange|purple|violet|pink|grey|gray|black|white|brown';
  const THINGS = 'buttons?|links?|icons?|boxe?s?|fields?|text|words?|items?|arrows?|circles?|squares?|stars?|'
    + 'tabs?|bars?|areas?|sections?|panels?|banners?|labels?|dots?|lights?|symbols?|signs?|flags?|ticks?|crosses?';
  const CONTROLS = { button: 'button', buttons: 'button', link: 'link', links: 'link' };
  const VERB = '(?:click|press|tap|select|choose|use|hit|follow|activate|see|look\\s+at|look\\s+for|find|read|' +
    'check|fill\\s+in|complete|enter|type\\s+in|go\\s+to|refer\\s+to|drag)';
  const GAP = '(?:[^.!?;:]{0,40}?)';
  // "the green button", "the big round icon": one or two sensory words before the thing.
  const LOOKS = new RegExp(
    `\\b${VERB}\\b${GAP}\\b(?:the|a|an|any|each|one\\s+of\\s+the)\\s+` +
    `((?:(?:${COLOURS}|round|rounded|circular|square|rectangular|triangular|oval|diamond|star-shaped|` +
    `arrow-shaped|large|big|small|tiny|little|flashing|blinking)\\s+){1,2})(${THINGS})\\b`, 'i');
  // "the link on the right", "the button in the top left corner", "the right-hand menu".
  const PLACE = '(?:(?:far\\s+)?(?:left|right)(?:[\\s-]hand)?(?:\\s+(?:side|corner|column|sidebar|panel|margin))?' +
    '|(?:top|bottom|upper|lower)[\\s-](?:left|right)(?:\\s+corner)?)';
  const WHERE = new RegExp(
    `\\b${VERB}\\b${GAP}\\bthe\\s+(${THINGS}|menu|form|list|column|image|picture|map)\\s+` +
    `(?:(?:on|to|at|in)\\s+the\\s+)${PLACE}(?:\\s+of\\s+(?:the|this)\\s+(?:page|screen|window|form))?\\b`, 'i');
  const PLACED = new RegExp(
    `\\b${VERB}\\b${GAP}\\bthe\\s+(?:far\\s+)?(?:left|right)[\\s-]hand\\s+(${THINGS}|menu|column|panel|side)\\b`, 'i');
  const SOUND = /\b(?:when|after|once|until)\s+you\s+hear\s+(?:the|a|an)\s+(?:beep|tone|chime|bell|buzz|click|sound|signal|alarm)\b/i;
  // "Required fields are shown in red": the colour carries what the text means.
  const COLOURED = new RegExp(
    `\\b(?:marked|shown|highlighted|displayed|indicated|written|printed|coloured|colored)\\s+(?:in|with)\\s+` +
    `(?:${COLOURS})\\b`, 'i');
  const TEST = [LOOKS, WHERE, PLACED, SOUND, COLOURED];
  const FLOWS = (display) => display === 'contents' || display.startsWith('inline') || display === 'ruby';
  const SKIP = 'script, style, noscript, template, textarea, select, option, pre, code, kbd, samp, svg, math';

  const english = (node) => {
    const declared = node.closest('[lang]');
    const lang = (declared ? declared.getAttribute('lang') : '').trim().toLowerCase();
    return lang === '' || lang === 'en' || lang.startsWith('en-');
  };
  // The block's own text: its text nodes and those of inline descendants, not of blocks inside.
  const ownText = (block) => {
    let out = '';
    const walk = (el) => {
      for (const child of el.childNodes) {
        if (child.nodeType === Node.TEXT_NODE) out += child.data;
        else if (child.nodeType === Node.ELEMENT_NODE && !child.matches(SKIP)
          && FLOWS(getComputedStyle(child).display)) walk(child);
        else if (child.nodeType === Node.ELEMENT_NODE) out += ' ';
      }
    };
    walk(block);
    return out.replace(/\s+/g, ' ').trim();
  };
  const sentences = (textValue) => textValue.split(/(?<=[.!?])\s+/).filter(Boolean);
  const referenceIn = (sentence) => {
    for (const test of TEST) {
      const found = test.exec(sentence);
      if (found) return { test, found };
    }
    return null;
  };

  // The blocks holding a text node with one of the words a reference needs: found once per
  // document and run from its text nodes, so the matches cost no more on a large page.
  const WORDS = new RegExp(`\\b(?:left|right|hear|${COLOURS}|round|rounded|circular|square|rectangular|` +
    'triangular|oval|diamond|shaped|large|big|small|tiny|little|flashing|blinking)\\b', 'i');
  const candidates = (doc) => {
    const cache = axe._cache.get('a11y-sensory-blocks', () => new Map());
    if (!cache.has(doc)) {
      const blocks = new Set();
      const walker = doc.createTreeWalker(doc.body || doc.documentElement, NodeFilter.SHOW_TEXT);
      for (let t = walker.nextNode(); t; t = walker.nextNode()) {
        if (!WORDS.test(t.data)) continue;
        let el = t.parentElement;
        while (el && el.parentElement && FLOWS(getComputedStyle(el).display)) el = el.parentElement;
        if (el && !el.closest(SKIP)) blocks.add(el);
      }
      cache.set(doc, blocks);
    }
    return cache.get(doc);
  };

  const matches = function (node) {
    if (!candidates(node.ownerDocument).has(node) || !english(node)) return false;
    return sentences(ownText(node)).some((sentence) => referenceIn(sentence) !== null);
  };

  // The names of the page's visible buttons and links, counted by kind, once per document and run.
  const controlsOf = (doc) => {
    const cache = axe._cache.get('a11y-sensory-controls', () => new Map());
    if (!cache.has(doc)) {
      const kinds = { button: 0, link: 0 };
      const names = new Set();
      const selectors = {
        button: 'button, input[type="button"], input[type="submit"], input[type="reset"], input[type="image"], [role="button"]',
        link: 'a[href], area[href], [role="link"]',
      };
      for (const [kind, selector] of Object.entries(selectors)) {
        for (const el of doc.querySelectorAll(selector)) {
          if (!el.checkVisibility || !el.checkVisibility({ visibilityProperty: true })) continue;
          kinds[kind] += 1;
          const name = (el.getAttribute('aria-label') || (el.localName === 'input' ? el.value : '') || el.getAttribute('alt') || el.textContent || '')
            .replace(/\s+/g, ' ').trim().toLowerCase();
          if (name.length >= 3) names.add(name);
        }
      }
      cache.set(doc, { kinds, names });
    }
    return cache.get(doc);
  };
  const QUOTED = /["“”„«»]([^"“”„«»]{2,60})["“”„«»]|(?:^|\s)['‘’]([^'‘’]{2,60})['‘’](?=\s|[.,!?;:]|$)/;

  const escaped = (value) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const namesAControl = (sentence, controls) => {
    const lower = sentence.toLowerCase();
    return QUOTED.test(sentence) || [...controls.names].some(
      (name) => lower.includes(name) && new RegExp(`(?:^|[^\\p{L}\\p{N}])${escaped(name)}(?:$|[^\\p{L}\\p{N}])`, 'u').test(lower),
    );
  };

  const evaluate = function (node) {
    const controls = controlsOf(node.ownerDocument);
    let review = null;
    for (const sentence of sentences(ownText(node))) {
      const hit = referenceIn(sentence);
      if (!hit || namesAControl(sentence, controls)) continue;  // named too: not by the sense alone
      const phrase = hit.found[0].replace(/\s+/g, ' ').slice(0, 120);
      const thing = hit.test === LOOKS ? hit.found[2] : (hit.test === SOUND || hit.test === COLOURED ? '' : hit.found[1]);
      const kind = CONTROLS[thing.toLowerCase()];
      if (kind && controls.kinds[kind] >= 2) {
        this.data({ phrase, kind, count: controls.kinds[kind] });
        return false;
      }
      if (!kind && !review) review = { phrase };  // the only button or link: its role tells it
    }
    if (review) {
      this.data(review);
      return undefined;
    }
    return true;
  };

  return part === 'matches' ? matches : evaluate;
})
