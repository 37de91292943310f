// Function expression (url, method, headers, body, max length, timeout ms): fetches with the page's cookies; returns {status, statusText, headers, body, truncated, body_length, url, origin} or {failed, origin}.
async (url, method, headers, body, maxLength, timeoutMs) => {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const origin = location.origin;
  try {
    let response;
    try {
      response = await fetch(url, {method, headers, body: body === null ? undefined : body,
                                   credentials: 'include', redirect: 'follow', cache: 'no-store',
                                   signal: controller.signal});
    } catch (e) {
      return {failed: e.name === 'AbortError' ? 'timeout' : String(e.message || e), origin};
    }
    const text = method === 'HEAD' ? '' : await response.text();
    const out = {};
    response.headers.forEach((value, key) => { out[key] = value; });
    const cut = maxLength > 0 && text.length > maxLength;
    return {status: response.status, statusText: response.statusText, headers: out,
            body: cut ? text.slice(0, maxLength) : text, truncated: cut, body_length: text.length,
            url: response.url, origin};
  } catch (e) {
    return {failed: e.name === 'AbortError' ? 'timeout' : String(e.message || e), origin};
  } finally {
    clearTimeout(timer);
  }
}
