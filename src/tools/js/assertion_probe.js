// Function expression (locateElement, H, loc, condition, arg): returns condition(el, arg, H) for loc's first visible match (null if none).
async (locateElement, H, loc, condition, arg) => {
  let el = null;
  if (loc) {
    try {
      el = await locateElement(loc, 'attached', 0, {scroll: false, visibleFirst: true});
    } catch (e) {
      let info = null;
      try { info = JSON.parse(e.message); } catch { throw e; }
      if (info.code !== 'element_not_found') throw new Error('invalid selector: ' + info.message);
    }
  } else {
    el = document.body || document.documentElement;
  }
  return condition(el, arg, H);
}
