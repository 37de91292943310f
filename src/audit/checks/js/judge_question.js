// Function expression (), the axe check of every judgment check (a11y-judge-…): returns
// undefined, so each element the rule applies to becomes a needs-review item whose message is
// the check's question for the LLM judge.
(function () {
  return undefined;
})
