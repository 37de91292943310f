// Function expression (context, options, finishAlone), called in a frame's isolated world
// with axe loaded: returns the frame contexts of the child frames, and leaves this frame's
// partial result, JSON text, in the promise globalThis.__a11yPartial. With finishAlone, a
// frame without child frames runs axe.run instead, into globalThis.__a11yResult, and returns
// null. A null context means the whole document.
/* global axe */
(function (context, options, finishAlone) {
  const target = context === null ? document : context;
  const frames = axe.utils.getFrameContexts(target, options);
  if (finishAlone && !frames.length) {
    globalThis.__a11yResult = axe.run(target, options).then((r) => JSON.stringify(r));
    return null;
  }
  globalThis.__a11yPartial = axe.runPartial(target, options).then((r) => JSON.stringify(r));
  return frames;
})
