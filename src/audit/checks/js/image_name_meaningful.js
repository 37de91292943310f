// Function expression (node, options, virtualNode), the evaluate of a11y-image-name-meaningful:
// returns false when the image's accessible name is no text alternative at all (a file name, the
// image's own address, a placeholder word, or for an image that is a control's only content a
// word naming the control's kind), undefined when it may be one but reads badly (it starts by
// calling itself an image, is very long, or is a web address), true otherwise.
/* global axe */
(function (node, options, virtualNode) {
  const name = axe.commons.text.accessibleTextVirtual(virtualNode).replace(/\s+/g, ' ').trim();
  const IMAGE_FILE = /\.(?:jpe?g|jfif|png|apng|gif|webp|avif|svg|bmp|tiff?|ico|heic|heif)(?:[?#]\S*)?$/i;
  // Camera, phone and screenshot file names, with or without their extension.
  const CAMERA = /^(?:img|dsc[nf]?|dcim|pxl|mvimg|gopr|dji|sam)[_-]?\d{3,}(?:[_-]\d+)*(?:\s?\(\d+\))?$/i;
  const SCREENSHOT = /^(?:screen ?shot|screenshot|bildschirmfoto|capture d.écran)[ _-]\d{4}-\d{2}-\d{2}\b/i;
  // A resolution or size suffix that only file names carry: logo@2x, ad_300x250.
  const SIZED = /^[\p{L}\p{N}_-]+(?:@\d(?:\.\d)?x|[_-]\d{2,4}x\d{2,4})$/iu;
  const PLACEHOLDER = new Set([
    'image', 'images', 'img', 'photo', 'photos', 'photograph', 'picture', 'pic', 'graphic', 'graphics',
    'spacer', 'blank', 'filler', 'dummy', 'untitled', 'untitled image', 'placeholder', 'placeholder image',
    'alt', 'alt text', 'alttext', 'alt tag', 'image alt', 'alternative text', 'alt attribute',
    'image description', 'description', 'insert alt text', 'add alt text', 'enter alt text',
    'alt text here', 'todo', 'tbd', 'null', 'undefined', 'object object',
    'foto', 'bild', 'imagen', 'immagine', 'imagem', 'afbeelding', 'grafik',
  ]);
  // Words that say what kind of control an image is, never what it does.
  const CONTROL_WORD = new Set([
    'button', 'btn', 'image button', 'button image', 'click', 'click here', 'link', 'image link',
    'icon', 'arrow', 'arrow icon',
  ]);
  const NUMBERED = /^(?:image|img|photo|picture|pic|graphic|foto|untitled|placeholder)[\s_-]*\d+$/i;
  const REDUNDANT = /^(?:an? |the )?(?:image|picture|photo|photograph|graphic|pic|img)\s+(?:of|showing|depicting)\s/i;
  const WEB = /^(?:(?:https?|ftps?):\/\/|\/\/|www\.)\S+$/i;
  const LONG = 150;

  const key = name.toLowerCase().replace(/^[\s\p{P}\p{S}]+|[\s\p{P}\p{S}]+$/gu, '').replace(/[\s_-]+/g, ' ');
  const source = node.getAttribute('src') || '';
  const sources = new Set([source.trim(), node.src || ''].filter(Boolean).map((s) => s.toLowerCase()));
  let stem = '';
  try {
    stem = decodeURIComponent(new URL(source, node.baseURI).pathname.split('/').pop() || '').toLowerCase();
  } catch {
    stem = '';
  }
  const bare = stem.replace(/\.[a-z0-9]+$/, '');
  const control = () => {
    if (node.localName === 'input' || node.localName === 'area') return true;
    const owner = node.closest('a[href], button, [role="button"], [role="link"]');
    if (!owner || owner === node) return false;
    return axe.commons.text.accessibleText(owner).replace(/\s+/g, ' ').trim() === name;
  };
  const say = (reason) => {
    this.data({ name: name.length > 80 ? name.slice(0, 77) + '...' : name, reason });
  };

  if (!name) return true;
  const lower = name.toLowerCase();
  if (sources.has(lower) || /^data:/i.test(name)) {
    say('is the address of the image file');
    return false;
  }
  if (!/\s/.test(name) && IMAGE_FILE.test(name)) {
    say('is a file name');
    return false;
  }
  const fileLike = bare && !/\s/.test(name) && (lower === stem || lower === bare) &&
    (/_/.test(bare) || /\d{5,}/.test(bare) || /[@-]\d(?:\.\d)?x$/.test(bare));
  if (fileLike || CAMERA.test(name) || SCREENSHOT.test(name) || SIZED.test(name)) {
    say('is a file name');
    return false;
  }
  if (PLACEHOLDER.has(key) || NUMBERED.test(key)) {
    say('is a placeholder word');
    return false;
  }
  if (CONTROL_WORD.has(key) && control()) {
    say('names the kind of control, not what it does');
    return false;
  }
  if (WEB.test(name)) {
    say('is a web address');
    return undefined;
  }
  if (IMAGE_FILE.test(name)) {
    say('ends like a file name');
    return undefined;
  }
  if (REDUNDANT.test(name)) {
    say('starts by calling it an image, which screen readers announce already');
    return undefined;
  }
  if (name.length > LONG) {
    say(`is ${name.length} characters long`);
    return undefined;
  }
  return true;
})
