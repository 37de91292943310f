// Whole script, run by the HTML report (inline) and by the dashboard: wires the controls of
// each .a11y-report (filters by impact, WCAG level and page; findings grouped by rule or by
// page) and sets globalThis.a11yReport = {init(root)} for reports inserted later; returns nothing.
(() => {
  function checked(form, name) {
    return new Set(Array.from(form.querySelectorAll(`input[name="${name}"]:checked`), (i) => i.value));
  }

  function init(root) {
    if (root.dataset.reportReady) return;
    root.dataset.reportReady = 'yes';
    const form = root.querySelector('.report-controls');
    if (!form) return;
    const byRule = root.querySelector('.groups');
    const byPage = root.querySelector('.groups-by-page');
    const findings = Array.from(byRule.querySelectorAll('li.item'));
    const reviews = Array.from(root.querySelectorAll('.report-review li.item'));
    const homes = new Map(findings.map((item) => [item, item.parentElement]));
    const pageNames = new Map(Array.from(form.elements.page.options, (o) => [o.value, o.textContent]));
    const count = form.querySelector('.report-count');
    form.hidden = false;
    form.addEventListener('submit', (event) => event.preventDefault());

    function pageGroups() {
      const level = Math.min(6, Number(byPage.dataset.heading) || 3);
      const groups = new Map();
      for (const item of findings) {
        const page = item.dataset.page;
        if (!groups.has(page)) {
          const section = document.createElement('section');
          section.className = 'group';
          const heading = document.createElement(`h${level}`);
          heading.textContent = `Page: ${pageNames.get(page) || 'unknown page'}`;
          const list = document.createElement('ol');
          list.className = 'items';
          section.append(heading, list);
          groups.set(page, section);
        }
        groups.get(page).querySelector('ol').append(item);
      }
      const order = Array.from(groups.keys()).sort((a, b) => Number(a) - Number(b));
      byPage.replaceChildren(...order.map((page) => groups.get(page)));
    }

    function regroup(grouping) {
      if (grouping === 'page') {
        pageGroups();
      } else {
        for (const item of findings) homes.get(item).append(item);
        byPage.replaceChildren();
      }
      byRule.hidden = grouping === 'page';
      byPage.hidden = grouping !== 'page';
    }

    function apply() {
      const impacts = checked(form, 'impact');
      const levels = checked(form, 'level');
      const page = form.elements.page.value;
      const show = (item) =>
        impacts.has(item.dataset.impact) && levels.has(item.dataset.level) &&
        (page === '' || item.dataset.page === page);
      let shownFindings = 0;
      let shownReviews = 0;
      for (const item of findings) {
        item.hidden = !show(item);
        if (!item.hidden) shownFindings += 1;
      }
      for (const item of reviews) {
        item.hidden = !show(item);
        if (!item.hidden) shownReviews += 1;
      }
      for (const group of root.querySelectorAll('.group')) {
        group.hidden = !group.querySelector('li.item:not([hidden])');
      }
      let text = `Showing ${shownFindings} of ${findings.length} findings`;
      if (reviews.length) text += ` and ${shownReviews} of ${reviews.length} items that need review`;
      count.textContent = `${text}.`;
    }

    form.addEventListener('change', (event) => {
      if (event.target.name === 'group') regroup(event.target.value);
      apply();
    });
    apply();
  }

  globalThis.a11yReport = {init};
  document.querySelectorAll('.a11y-report').forEach(init);
})();
