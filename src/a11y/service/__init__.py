"""``a11y serve``: the HTTP audit service (quart-trio on hypercorn, in-process, one nursery).

Shape of the process::

    trio.run
    └── nursery (serve_app)
        ├── Jobs.open               the run store, the page queue, the run coordinator and
        │                           (without --queue, or with --workers) the local worker
        ├── BrowserSupervisor.run   one warm browser; relaunched whenever it dies
        └── hypercorn.trio.serve    POST /audit, /audits…, GET /health, GET /openapi.json

Why one nursery: the browser, the jobs system, the HTTP server and every in-flight audit
share one lifetime, so a shutdown (SIGINT/SIGTERM or a test leaving ``running_service``)
cancels the audits, stops the server and kills the browser's process group, with nothing
left behind; runs in flight stay in the store and resume at the next start. The store is
opened first: one that cannot be opened stops the service before a browser is launched.

Why a supervisor instead of launching per request: a Chromium start costs ~0.5-1 s, far more
than a small audit; every audit gets a fresh browser *context* instead (the engine's job), so
isolation does not need a fresh process. When the browser crashes the audits running on it
fail with ``browser_crashed`` and the next ones wait (bounded) for the relaunch.

Request handling order for ``POST /audit`` (cheapest rejection first, nothing is opened
before the request is known to be good): token and scope -> content type -> size -> JSON ->
model -> server limits -> the token's sites -> LLM configuration -> queue admission ->
browser -> audit -> stored as a run. ``POST /audits`` shares the steps up to the LLM
configuration (one function), then stores and queues the job; the other ``/audits`` routes
check the token and its scope, the run id (and whether the token may see the run) and the
query string, in that order.

The modules, one job each:

- :mod:`.config`: :class:`ServiceConfig`, everything the service needs, and the engine's
  limits derived from it;
- :mod:`.supervisor`: :class:`BrowserSupervisor`, the one warm browser;
- :mod:`.gate`: :class:`AuditGate`, admission (how many run, how many wait);
- :mod:`.auth`: who is asking (``--token``, a stored API token or no auth) and what they
  may do (scope, sites); :mod:`.auth_api`: ``GET /auth/self`` and the scopes in the document;
- :mod:`.replies`: the JSON and error bodies every route answers with;
- :mod:`.handlers`: ``POST /audit`` step by step, the admission steps every body goes
  through, and the one log line of a request;
- :mod:`.jobs_api`: the ``/audits`` routes on ``jobs.system.Jobs``;
- :mod:`.jobs_schema`: their query and answer models, and their OpenAPI paths;
- :mod:`.sse`: Server-Sent Events framing;
- :mod:`.app`: :func:`create_app`, the routes and error handlers;
- :mod:`.serve`: :func:`serve_app` / :func:`running_service` (the nursery above) and the
  ``a11y serve`` entry point.
"""

from .app import create_app
from .config import ServiceConfig
from .serve import RunningService, running_service, serve_app

__all__ = ["RunningService", "ServiceConfig", "create_app", "running_service", "serve_app"]
