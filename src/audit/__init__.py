"""The WCAG audit engine (floor 2: imports ``cdpdriver``, never ``tools`` or ``a11y``).

Two halves. The pure half decides the result from data and never touches a browser, the
network or the file system (beyond reading the vendored bundle), so it is tested without one:

- :mod:`.models`: the HTTP contract (request, result, error bodies, OpenAPI);
- :mod:`.rules`: which axe-core rules run for a WCAG version and level;
- :mod:`.findings`, :mod:`.scoring`: axe results to findings; score, conformance, stats;
- :mod:`.page_audit`: what one page yields, and the assembly of pages into one result;
- :mod:`.reports`: text, JSON, SARIF, JUnit and HTML renderings of a result;
- :mod:`.meta`, :mod:`.axe_bundle`: the package version, the vendored axe-core bundle.

The browser half runs the audit in Chromium over :mod:`cdpdriver`:

- :mod:`.engine`: :func:`~audit.engine.run_audit` / :func:`~audit.engine.audit_page`, the
  one entry for the service, the CLI and the tools;
- :mod:`.failures`: :class:`~audit.failures.AuditFailed`, the only error the engine raises,
  and the one mapping of every other error onto it;
- :mod:`.readiness`, :mod:`.axe`, :mod:`.spares`: load and settle a page, run axe-core over
  all its frames, keep prepared pages ready;
- :mod:`.crawl`: the breadth-first crawl of one origin;
- :mod:`.netguard`, :mod:`.egress`, :mod:`.addresses`: ``--block-private-networks``;
- :mod:`.llm`: optional LLM review of the findings, from evidence read off the open page.

Page-side scripts live in ``js/`` (loaded with :func:`cdpdriver.scripts.load_script`).
Import the submodules directly; this module stays empty on purpose.
"""
