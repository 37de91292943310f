// Function expression (options), called in a finisher's isolated world with axe loaded:
// starts axe.finishRun over the partials written as chunks into globalThis.__a11yIn and
// leaves its results, JSON text, in the promise globalThis.__a11yResult; returns nothing.
/* global axe */
(function (options) {
  globalThis.__a11yResult = (async () => {
    const partials = JSON.parse(globalThis.__a11yIn.join(''));
    delete globalThis.__a11yIn;
    return JSON.stringify(await axe.finishRun(partials, options));
  })();
})
