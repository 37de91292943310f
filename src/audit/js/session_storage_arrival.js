// Function expression (origin, items), sent as an init script: fills sessionStorage when the top document is of origin; returns nothing.
(origin, items) => {
  if (window !== window.top || location.origin !== origin) return;
  try {
    for (const [k, v] of Object.entries(items)) sessionStorage.setItem(k, v);
  } catch {
    // storage blocked for this document: nothing to restore into
  }
}
