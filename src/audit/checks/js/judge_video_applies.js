// Function expression (node, virtualNode), the matches of a11y-judge-video-captions: returns true
// for a visible video element whose media loads, is not a live stream (infinite duration) and,
// once its metadata is known, has an audio track (a video not loaded yet counts as having one).
/* global axe */
(function (node, virtualNode) {
  if (node.error || node.networkState === HTMLMediaElement.NETWORK_NO_SOURCE) return false;
  if (node.duration === Infinity || !axe.commons.dom.isVisibleOnScreen(virtualNode)) return false;
  if (node.readyState < HTMLMediaElement.HAVE_METADATA || typeof node.captureStream !== 'function') return true;
  try {
    const stream = node.captureStream();
    const audio = stream.getAudioTracks().length > 0;
    stream.getTracks().forEach((track) => track.stop());
    return audio;
  } catch {
    return true; // the tracks cannot be read (a cross-origin source): ask anyway
  }
})
