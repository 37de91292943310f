// Function expression (source): appends a <style> with the CSS; returns how many rules the browser parsed (-1 when CSP left it without a sheet).
(source) => {
  const el = document.createElement('style');
  el.textContent = source;
  (document.head || document.documentElement).appendChild(el);
  return el.sheet ? el.sheet.cssRules.length : -1;
}
