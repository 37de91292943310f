// Function expression (context, options, finishAlone), called in a frame's isolated world
// with axe loaded: returns the frame contexts of the child frames, and leaves this frame's
// partial result, JSON text, in the promise globalThis.__a11yPartial. With finishAlone, a
// frame without child frames runs axe.run instead, into globalThis.__a11yResult, and returns
// null. A null context means the whole document.
/* global axe */
(function (context, options, finishAlone) {
  const target = context === null ? document : context;
  // axe.utils.getFrameContexts builds axe's tree of the whole document, a tenth of a second
  // on a large page, and axe.run builds it again; a document with no frame element in it or
  // in any open shadow root (what that tree holds) has no frame contexts to ask for.
  const holdsFrames = (root) =>
    root.querySelector('iframe, frame') !== null ||
    Array.from(root.querySelectorAll('*')).some((el) => el.shadowRoot && holdsFrames(el.shadowRoot));
  const frames =
    context === null && !holdsFrames(document) ? [] : axe.utils.getFrameContexts(target, options);
  if (finishAlone && !frames.length) {
    globalThis.__a11yResult = axe.run(target, options).then((r) => JSON.stringify(r));
    return null;
  }
  globalThis.__a11yPartial = axe.runPartial(target, options).then((r) => JSON.stringify(r));
  return frames;
})
