"""Pure half of the WCAG audit engine: request/result models, rule selection, mapping of
axe-core results to findings, scoring and report rendering.

Nothing in this package touches a browser, the network or the file system, so the browser
half (injection, runPartial/finishRun, crawling) and the HTTP/CLI layers can share one tested
definition of the contract. Import the submodules directly; this module stays empty on purpose.
"""
