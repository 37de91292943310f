// Function expression (node), the axe check of a11y-text-list, run on an element with line
// breaks or paragraphs of its own: returns false when three or more consecutive lines of its
// own text, separated by <br>, start with the same bullet character or with consecutive
// numbers or letters ("1.", "2.", "3."): a list only to the eye; undefined when three or more
// consecutive child paragraphs do (they may be numbered paragraphs rather than a list); true
// otherwise.
(function (node) {
  const BULLET = /^([•·▪▫◦‣∙●○■□►▸▹➢➤✓✔→*+-])\s+\S/u;
  const NUMBER = /^(\d{1,3}|[a-z])([.)])\s+\S/i;
  const marker = (line) => {
    const bullet = line.match(BULLET);
    if (bullet) return { kind: `bullet${bullet[1]}` };
    const number = line.match(NUMBER);
    if (!number) return null;
    const digits = /\d/.test(number[1]);
    const value = digits ? parseInt(number[1], 10) : number[1].toLowerCase().charCodeAt(0);
    return { kind: `${digits ? 'number' : 'letter'}${number[2]}`, value };
  };
  // The longest run of consecutive lines with the same kind of marker (numbers counting up);
  // null stands for a break in the run.
  const longest = (lines) => {
    let best = 0;
    let run = 0;
    let previous = null;
    for (const line of lines) {
      const current = line === null ? null : marker(line);
      const continues = !!current && !!previous && current.kind === previous.kind
        && (current.value === undefined || current.value === previous.value + 1);
      run = current ? (continues ? run + 1 : 1) : 0;
      previous = current;
      best = Math.max(best, run);
    }
    return best;
  };
  const clean = (text) => text.replace(/\s+/g, ' ').trim();
  // The element's own lines: inline content cut at each <br>; a block child ends a run.
  const lines = [];
  let line = '';
  for (const child of node.childNodes) {
    if (child.nodeType === Node.TEXT_NODE) {
      line += child.data;
    } else if (child.nodeType === Node.ELEMENT_NODE) {
      const block = child.localName !== 'br' && !window.getComputedStyle(child).display.startsWith('inline');
      if (child.localName === 'br' || block) {
        if (clean(line)) lines.push(clean(line));
        if (block) lines.push(null);
        line = '';
      } else {
        line += child.textContent;
      }
    }
  }
  if (clean(line)) lines.push(clean(line));
  if (longest(lines) >= 3) return false;
  const paragraphs = Array.from(node.children).map((child) => (child.localName === 'p' ? clean(child.textContent) : null));
  if (longest(paragraphs) >= 3) return undefined;
  return true;
})
