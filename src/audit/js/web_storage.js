// Function expression (area, op, key, value): one web-storage operation on the page's origin; returns {origin, …} or {opaque}/{denied}.
(area, op, key, value) => {
  if (!location.origin || location.origin === 'null') return {opaque: location.href};
  let store;
  try { store = window[area]; } catch (e) { return {denied: String(e), origin: location.origin}; }
  const items = () => {
    const out = {};
    for (let i = 0; i < store.length; i++) { const k = store.key(i); out[k] = store.getItem(k); }
    return out;
  };
  const result = {origin: location.origin};
  switch (op) {
    case 'get': result.value = store.getItem(key); break;
    case 'set': store.setItem(key, value); break;
    case 'delete': result.existed = store.getItem(key) !== null; store.removeItem(key); break;
    case 'clear': result.cleared = store.length; store.clear(); break;
    case 'list': result.items = items(); break;
    case 'merge': for (const [k, v] of Object.entries(value)) store.setItem(k, String(v)); break;
  }
  return result;
}
