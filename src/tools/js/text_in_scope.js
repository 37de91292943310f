// Function expression (el, items, H), a check condition: returns {ok, actual, found, missing, otherCase} for the texts items in el.
(el, items, H) => {
  if (!el) return {ok: false, actual: null, found: [], missing: items};
  const text = H.norm(H.deepText(el));
  const found = items.filter((t) => text.includes(H.norm(t)));
  const missing = items.filter((t) => !text.includes(H.norm(t)));
  const lower = text.toLowerCase();
  const otherCase = missing.filter((t) => lower.includes(H.norm(t).toLowerCase()));
  return {ok: missing.length === 0, actual: text, found, missing, otherCase};
}
