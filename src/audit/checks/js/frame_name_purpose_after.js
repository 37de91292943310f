// Function expression (results), the after step of a11y-frame-name-purpose, run once over the
// results of every frame of the page: a frame that shares its name with another frame embedding
// a different resource fails (which the rule turns into needs review: two resources may serve
// the same purpose); frames sharing a name and a resource pass. Returns the results.
(function (results) {
  const byName = new Map();
  for (const result of results) {
    if (!result.data || !result.data.name) continue;
    if (!byName.has(result.data.name)) byName.set(result.data.name, []);
    byName.get(result.data.name).push(result);
  }
  for (const group of byName.values()) {
    const resources = new Set(group.map((result) => result.data.resource));
    if (group.length > 1 && resources.size > 1) {
      for (const result of group) result.result = false;
    }
  }
  return results;
})
