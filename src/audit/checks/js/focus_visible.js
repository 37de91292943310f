// Function expression (node), the axe check of a11y-focus-visible: returns the verdict its
// matches measured for the element (true: focusing it changes how it or something around it
// looks; false: nothing changes; undefined: a text field whose only sign may be its caret).
(function (node) {
  const state = window[Symbol.for('a11y.focusVisible')];
  return state ? state.verdicts.get(node) : undefined;
})
