"""Runs over time: site audits as jobs that outlive a request, a process and a machine.

``jobs.system.Jobs`` is the one facade the front ends use. Beneath it:

- ``store``: runs, their pages (the persistent frontier), findings and progress events in
  one SQL database (SQLite by default, PostgreSQL when shared);
- ``queue``: page tasks handed to workers at least once (in process, or Redis Streams);
- ``coordinator``: starts runs, admits each crawl level (``frontier``) once the previous
  one is done, finishes runs (``results``), resumes them after a restart;
- ``worker``: audits page tasks with the engine and records them idempotently
  (``run_worker`` is the ``a11y worker`` process), polite per origin (``politeness``);
- ``seeds``: robots.txt (``robots``) and sitemaps (``sitemaps``), read with bounds
  (``fetch``);
- ``models``: the job request; ``secrets``: what of a request is kept apart from the stored
  run (URL credentials, ``auth``); ``events``: the progress events; ``ids``: run ids and
  page keys; ``backends``: the store and the queue opened together.

This floor runs audits (``audit``, ``cdpdriver``) and never imports ``tools`` or the front
ends in ``a11y``.
"""
