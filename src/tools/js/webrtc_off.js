// Whole script, an init script: removes WebRTC's peer-connection constructors from the window (guard rails: WebRTC off under origin rules); returns nothing.
// A peer connection reaches STUN and TURN servers by UDP and TCP that no request interception
// sees, so under an origin allowlist it must not exist at all.
(() => {
  const names = ['RTCPeerConnection', 'webkitRTCPeerConnection', 'RTCDataChannel', 'RTCSessionDescription',
    'RTCIceCandidate', 'RTCRtpSender', 'RTCRtpReceiver', 'RTCRtpTransceiver', 'RTCDtlsTransport',
    'RTCIceTransport', 'RTCSctpTransport', 'RTCCertificate'];
  for (const name of names) {
    try {
      delete window[name];
    } catch {
      // not configurable here: nothing more can be done from the page
    }
  }
})();
