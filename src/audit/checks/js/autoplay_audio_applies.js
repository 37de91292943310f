// Function expression (node), the matches of a11y-autoplay-audio: returns true for an audio or
// video element that plays by itself with its sound on (an autoplay attribute, not muted by
// attribute or by script).
(function (node) {
  return node.hasAttribute('autoplay') && !node.hasAttribute('muted') && !node.muted;
})
