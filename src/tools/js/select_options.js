// Function expression (mode, wanted, timeout ms; this = <select>): returns {values, labels} now selected, after waiting for late options and firing input and change.
// mode is values, labels, indexes or auto (value, else label); run on the element through element.page_function (which provides fail and deepActive).
/* global fail */
async function (mode, wanted, timeoutMs) {
  if (this.localName !== 'select') fail('invalid_arguments', `is a <${this.localName}>, not a <select>; `
    + 'for a custom dropdown, click it and then click the option with element_click');
  const byLabel = (options, w) => {
    const low = String(w).replace(/\s+/g, ' ').trim().toLowerCase();
    return options.find((o) => o.label === w || o.text === w)
      || options.find((o) => o.label.replace(/\s+/g, ' ').trim().toLowerCase() === low);
  };
  const pick = (options, w) => mode === 'values' ? options.find((o) => o.value === w)
    : mode === 'labels' ? byLabel(options, w)
    : mode === 'indexes' ? options[w]
    : (options.find((o) => o.value === w) || byLabel(options, w));
  const end = performance.now() + timeoutMs;
  while (true) {
    const options = [...this.options];
    const chosen = wanted.map((w) => pick(options, w));
    const missing = wanted.filter((w, i) => !chosen[i]);
    const disabled = this.matches(':disabled');
    if (!missing.length && !disabled) {
      if (!this.multiple && chosen.length > 1) fail('invalid_arguments', `is a single-choice <select>; give one option, not ${chosen.length}`);
      const off = chosen.find((o) => o.disabled || (o.parentElement && o.parentElement.matches('optgroup[disabled]')));
      if (off) fail('invalid_arguments', `option ${JSON.stringify(off.label)} is disabled`);
      for (const o of options) o.selected = chosen.includes(o);
      if (!chosen.length) this.selectedIndex = -1;
      this.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
      this.dispatchEvent(new Event('change', {bubbles: true}));
      const picked = [...this.selectedOptions];
      return {values: picked.map((o) => o.value), labels: picked.map((o) => o.label)};
    }
    if (performance.now() >= end) {
      if (!missing.length) fail('timeout', 'is disabled');
      const have = options.slice(0, 40).map((o, i) => `${i}: ${JSON.stringify(o.value)} (${JSON.stringify(o.label)})`).join(', ');
      fail('element_not_found', `has no option matching ${missing.map((m) => JSON.stringify(m)).join(', ')} `
        + `(by ${mode === 'auto' ? 'value or label' : mode}); its options are ${have || 'none'}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
