/* global a11yProbe */
// Function expression (): marks the start of the interaction phase in the interaction world (a11yProbe.beginPhase), so that the relayout checks can tell what the phase's own actions opened; returns nothing.
function () {
  a11yProbe.beginPhase();
}
