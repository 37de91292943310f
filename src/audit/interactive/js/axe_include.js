/* global axe */
// Function expression (include, options), in axe's world of the top frame: axe-core's {violations, incomplete} for the elements include names (targets: a selector, or a list of selectors through shadow roots) and what is inside them, with options (frames not entered).
// Page-level rules do not run on part of a page, so only the elements' own rules answer.
async function (include, options) {
  const context = {
    include: include.map((target) => {
      const hop = target[0];
      return Array.isArray(hop) ? {fromShadowDom: hop} : [hop];
    }),
  };
  const results = await axe.run(context, {...options, iframes: false, resultTypes: ['violations', 'incomplete']});
  return {violations: results.violations, incomplete: results.incomplete};
}
