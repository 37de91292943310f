// Function expression (rules, checks, functions, overrides, adopted, superseded), called
// right after axe-core is loaded into an isolated world: registers a11y's own rules and checks
// with axe, applies the overrides to axe's own rules, lets the deprecated and experimental axe
// rules adopted asks for be selected by their WCAG tags (and adds the ACT ids it gives), and
// keeps the superseded axe rules from applying anywhere; returns nothing. functions maps each
// check id (and override name) to its page-side functions: {evaluate, after, matches} for a
// check, {wrap} for an override.
/* global axe */
(function (rules, checks, functions, overrides, adopted, superseded) {
  const own = (id, part) => (functions[id] || {})[part];
  const withFunctions = (item, parts) => {
    const out = Object.assign({}, item);
    for (const part of parts) {
      if (own(item.id, part)) out[part] = own(item.id, part);
    }
    return out;
  };
  axe.configure({
    checks: checks.map((check) => withFunctions(check, ['evaluate', 'after'])),
    rules: rules.map((rule) => withFunctions(rule, ['matches'])),
  });
  // Judgment checks run only when a run's options enable them by id (audit.rules).
  axe.configure({ tagExclude: (axe._audit.tagExclude || []).concat(['a11y-judgment']) });
  const ruleById = (id) => axe._audit.rules.find((rule) => rule.id === id);
  for (const override of overrides) {
    const wrap = own(override.name, 'wrap');
    for (const target of override.targets) {
      if (override.part === 'matches') {
        const rule = ruleById(target);
        if (rule) axe.configure({ rules: [{ id: rule.id, matches: wrap(rule.matches.bind(rule)) }] });
      } else {
        const check = axe._audit.checks[target];
        if (check && check[override.part]) {
          axe.configure({ checks: [{ id: check.id, [override.part]: wrap(check[override.part]) }] });
        }
      }
    }
  }
  for (const change of adopted) {
    const rule = ruleById(change.id);
    if (!rule) continue;
    const update = { id: rule.id, actIds: (rule.actIds || []).concat(change.actIds) };
    if (change.select) {
      update.tags = rule.tags.filter((tag) => tag !== 'deprecated' && tag !== 'experimental').concat(['a11y-adopted']);
      update.reviewOnFail = change.reviewOnFail;
    }
    axe.configure({ rules: [update] });
  }
  for (const id of superseded) {
    if (ruleById(id)) axe.configure({ rules: [{ id: id, matches: () => false }] });
  }
})
