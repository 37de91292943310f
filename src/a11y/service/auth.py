"""Who is asking and what they may do: the principal of a request, resolved in one place
(:func:`authorize`), the first step of every protected route.

Auth is on when the service runs with ``--token`` (``A11Y_API_TOKEN``) or its store holds a
token made by ``a11y token create``, revoked ones included (revoking the last token must not
open the service to everyone). Then a request is, by its ``Authorization: Bearer`` value:

- the ``--token`` value (compared in constant time): full access, named ``--token`` in logs;
- the value of a stored, unrevoked token: that token's scope and sites;
- anything else, or nothing: ``401 unauthorized``.

With auth off, everyone has full access. Scopes include the ones below them (``read`` <
``submit`` < ``admin``, :data:`jobs.store.tokens.SCOPES`); a route that needs more than the
token has answers ``403 forbidden`` naming the scope it needs, before looking at anything
else, so the answer says nothing about the run or site named. A token limited to sites sees
only their runs: a run of another site is ``404 not_found`` exactly like a run that does not
exist (:func:`visible_run`), so a token cannot learn which ids exist; a URL of another site to
audit is ``403 forbidden`` (the caller named it, so there is nothing to hide).

The token is looked up on every request (one indexed query by hash): revoking one takes
effect on the next request, with no cache to wait for.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from quart import g, request

from jobs.blocking import in_thread
from jobs.ids import site_of
from jobs.store import NotFound, Run, StoreError
from jobs.store.tokens import SCOPES, TOKEN_PREFIX, find_token, tokens_exist

from .replies import Refused

if TYPE_CHECKING:
    from jobs.system import Jobs

    from .handlers import Service

#: The name of the service's own ``--token`` in logs and ``GET /auth/self``; not a valid
#: stored token's name (those start with a letter or digit), so none can pass for it.
CONFIGURED_TOKEN = "--token"
#: Requests that change something: their log line names the token.
STATE_CHANGING = frozenset({"POST", "PUT", "DELETE", "PATCH"})


@dataclass(frozen=True, slots=True)
class Principal:
    """What a request may do. ``name`` is the token's (None when auth is off), ``sites`` the
    origins it is limited to (None: every site), ``stored`` whether it is a stored token
    (whose name its runs record as their owner)."""

    name: str | None
    scope: str
    sites: frozenset[str] | None = None
    stored: bool = False

    @property
    def owner(self) -> str | None:
        """What a run it starts records as ``submitted_by``."""
        return self.name if self.stored else None

    def allows(self, scope: str) -> bool:
        return SCOPES.index(self.scope) >= SCOPES.index(scope)

    def sees(self, site: str) -> bool:
        return self.sites is None or site in self.sites

    def may_cancel(self, run: Run) -> bool:
        """``admin`` cancels any run it sees; ``submit`` only those it started."""
        return self.allows("admin") or (self.owner is not None and run.submitted_by == self.owner)

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "scope": self.scope,
                "sites": None if self.sites is None else sorted(self.sites)}


#: Auth is off: everyone may do everything.
OPEN = Principal(None, "admin")
#: The service's ``--token``.
CONFIGURED = Principal(CONFIGURED_TOKEN, "admin")


async def authorize(service: Service, scope: str) -> Principal:
    """The request's principal, which must have ``scope``: ``401`` without a valid token
    (when auth is on), ``403 forbidden`` when its scope is lower. Kept for the request's
    log line (:func:`principal_name`) and its handler (:func:`current_principal`)."""
    principal = await _authenticate(service)
    g.a11y_principal = principal
    require_scope(principal, scope)
    return principal


def require_scope(principal: Principal, scope: str) -> None:
    """``403 forbidden`` naming the scope needed, unless the principal has ``scope``."""
    if not principal.allows(scope):
        raise Refused(
            403, "forbidden",
            f"This token has the {principal.scope} scope; this request needs the {scope} scope.",
        )


def current_principal() -> Principal:
    """The principal :func:`authorize` resolved for this request."""
    principal = g.get("a11y_principal")
    if principal is None:
        raise RuntimeError("current_principal() before authorize()")
    return principal


def principal_name() -> str:
    """The token's name for a log line (never its value); ``-`` when there is none (auth
    off, or the request was refused before it was known)."""
    principal = g.get("a11y_principal")
    return principal.name if principal is not None and principal.name else "-"


async def visible_run(jobs: Jobs, principal: Principal, run_id: str) -> Run:
    """The run, if the principal may see it; ``NotFound`` (answered as for an unknown id)
    when it does not exist or is of a site the token is not limited to."""
    run = await jobs.get(run_id)
    if not principal.sees(run.site):
        raise NotFound(f"no run {run_id}")
    return run


def require_site(principal: Principal, url: str) -> None:
    """``403 forbidden`` (field ``url``) unless the principal may audit ``url``'s site."""
    if principal.sites is None:
        return
    try:
        site = site_of(url)
    except ValueError:
        site = ""
    if site not in principal.sites:
        allowed = ", ".join(sorted(principal.sites))
        raise Refused(403, "forbidden", f"This token may audit only {allowed}.",
                      [{"field": "url", "message": f"Not a site this token may audit ({allowed})."}])


def _bearer(header: str | None) -> str | None:
    """The value of ``Authorization: Bearer <value>``, None for any other header."""
    scheme, _, supplied = (header or "").strip().partition(" ")
    if scheme.lower() != "bearer":
        return None
    return supplied.strip()


async def _authenticate(service: Service) -> Principal:
    supplied = _bearer(request.headers.get("Authorization"))
    configured = service.config.token
    if configured and supplied is not None and hmac.compare_digest(supplied.encode(), configured.encode()):
        return CONFIGURED
    jobs = service.jobs
    if jobs is not None and supplied is not None and supplied.startswith(TOKEN_PREFIX):
        found = await in_thread(find_token, jobs.store, supplied)
        if found is not None:
            service.tokens_seen = True
            sites = None if found.sites is None else frozenset(found.sites)
            return Principal(found.name, found.scope, sites, stored=True)
    if not configured and not await _tokens_seen(service):
        return OPEN
    raise Refused(
        401, "unauthorized", "A valid 'Authorization: Bearer <token>' header is required.",
        headers={"WWW-Authenticate": 'Bearer realm="a11y"'},
    )


async def _tokens_seen(service: Service) -> bool:
    """Whether the store holds any token. Once true it stays true (tokens are never
    deleted), so it is remembered; false is asked again, since ``a11y token create`` may run
    at any time in another process. While the store cannot be asked, the last answer stands
    (the service asks once as it starts, before any request): a service without tokens
    keeps answering ``POST /audit`` through a store outage, and one with tokens stays shut."""
    if not service.tokens_seen and service.jobs is not None:
        try:
            service.tokens_seen = await in_thread(tokens_exist, service.jobs.store)
        except StoreError:
            pass
    return service.tokens_seen
