// Function expression (node, options), the axe check of a11y-autoplay-audio, run on an audio or
// video element that plays by itself with its sound on; answers asynchronously once the media
// has data (or after options.waitMs): true when it has no audio, or its sound stops within
// options.seconds (a media fragment #t=start,end counts; loop never stops); otherwise false
// when nothing on the page could pause or mute it (no native controls, and no visible, named
// control near it or named for sound), else undefined (needs review: a control exists, whether
// it works is for a person to try). A sound track that decoded to almost nothing may be silent:
// undefined as well. With options.durationOnly (a11y-autoplay-audio-brief) sound that goes on
// longer is false whatever could stop it.
/* global axe */
(function (node, options) {
  const done = this.async();
  const check = this;
  const { dom, text } = axe.commons;
  const WIDGETS = 'button, input[type="button"], input[type="checkbox"], input[type="range"], ' +
    '[role~="button"], [role~="switch"], [role~="checkbox"], [role~="slider"], [role~="menuitem"]';
  const SOUND_WORDS = /\b(pause|stop|mute|unmute|sound|volume|audio|silence)\b/i;
  // Seconds of sound the element plays by itself: axe's reading of a #t= fragment.
  const playing = () => {
    if (node.loop) return Infinity;
    const fragment = (node.currentSrc || '').match(/#t=([^&]*)/);
    const seconds = (value) => value.split(':').reduce((total, part) => total * 60 + parseFloat(part), 0);
    if (!fragment) return node.duration - (node.currentTime || 0);
    const [start, end] = fragment[1].split(',').map(seconds);
    const stop = end >= 0 ? Math.min(end, node.duration) : node.duration;
    return Math.max(0, stop - (start || 0));
  };
  const usable = (el) => {
    const virtualNode = axe.utils.getNodeFromTree(el);
    return !!virtualNode && dom.isVisibleOnScreen(el) && dom.isVisibleToScreenReaders(virtualNode) &&
      text.sanitize(text.accessibleTextVirtual(virtualNode)) !== '';
  };
  // Controls that could be its instrument: in its container (up to three levels, not the
  // whole body), or anywhere on the page when their name is about sound.
  const instruments = () => {
    const found = new Set();
    let scope = node.parentElement;
    for (let level = 0; level < 3 && scope && scope !== document.body && scope !== document.documentElement; level++) {
      scope.querySelectorAll(WIDGETS).forEach((el) => found.add(el));
      scope = scope.parentElement;
    }
    document.querySelectorAll(WIDGETS).forEach((el) => {
      if (SOUND_WORDS.test(el.textContent + ' ' + (el.getAttribute('aria-label') || ''))) found.add(el);
    });
    return Array.from(found).filter((el) => el !== node && usable(el));
  };
  const decide = () => {
    if (node.error || node.networkState === HTMLMediaElement.NETWORK_NO_SOURCE) return true;
    if (node.readyState < HTMLMediaElement.HAVE_CURRENT_DATA || !(node.duration > 0)) return undefined;
    const audio = node.webkitAudioDecodedByteCount;
    if (audio === 0) return true;
    if (playing() <= options.seconds) return true;
    this.data({ seconds: Number.isFinite(playing()) ? Math.round(playing()) : 'endless' });
    if (audio !== undefined && audio < options.silentBytes) return undefined;
    // a11y-autoplay-audio-brief asks only how long the sound lasts, not what could stop it.
    if (options.durationOnly) return false;
    if (node.hasAttribute('controls') && dom.isVisibleOnScreen(node)) return undefined;
    const controls = instruments();
    if (controls.length) {
      check.relatedNodes(controls);
      return undefined;
    }
    return false;
  };
  const ready = () => node.error || node.networkState === HTMLMediaElement.NETWORK_NO_SOURCE ||
    node.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA;
  if (ready()) {
    done(decide.call(check));
    return;
  }
  const events = ['loadeddata', 'error', 'emptied'];
  let timer = 0;
  const finish = () => {
    clearTimeout(timer);
    events.forEach((name) => node.removeEventListener(name, finish));
    done(decide.call(check));
  };
  events.forEach((name) => node.addEventListener(name, finish));
  timer = setTimeout(finish, options.waitMs);
})
