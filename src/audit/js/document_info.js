// Whole script, evaluated for its value: what the main document says of its own response,
// {url, status (from the Navigation Timing entry, or null), mimeType}.
(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  return {
    url: location.href,
    status: (nav && nav.responseStatus) || null,
    mimeType: document.contentType || '',
  };
})();
