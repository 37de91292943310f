"""The secret parts of a request, kept apart from the request a run stores.

A run's ``request`` is listed, reported and exported, so it must hold no secret. What is
secret in a request:

- the ``user:password@`` of ``url`` and of each ``crawl.urls`` entry;
- the whole ``auth`` object (cookies, headers, storage state, login steps), whatever it
  holds: its values are replaced by ``"***"``, its key names stay as a summary of what was
  given (``{"cookies": "***", "headers": {}, …}``).

``split_secrets`` gives the request to store and the secrets (kept in ``run_secrets`` while
the run is unfinished); ``merge_secrets`` puts them back for the one who loads pages (a
worker); ``public_request`` is what the rest (the coordinator) works from, which needs no
secret: its URLs are those of the pages, which never carry credentials.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from audit.crawl import origin_of
from audit.urls import without_credentials

REDACTED = "***"
_SEED_URLS = "crawl.urls"

Json = dict[str, Any]


def split_secrets(request: Mapping[str, Any]) -> tuple[Json, Json]:
    """(the request without secrets, the secrets): a request in JSON names, as dumped."""
    redacted: Json = copy.deepcopy(dict(request))
    secrets: Json = {}
    url = redacted.get("url")
    if isinstance(url, str) and _has_credentials(url):
        secrets["url"] = url
        redacted["url"] = without_credentials(url)
    crawl = redacted.get("crawl")
    seeds = crawl.get("urls") if isinstance(crawl, dict) else None
    if isinstance(seeds, list):
        hidden = {str(n): seed for n, seed in enumerate(seeds) if isinstance(seed, str) and _has_credentials(seed)}
        for n, seed in hidden.items():
            seeds[int(n)] = without_credentials(seed)
        if hidden:
            secrets[_SEED_URLS] = hidden
    if redacted.get("auth") is not None:
        secrets["auth"] = redacted["auth"]
        redacted["auth"] = _summary(redacted["auth"])
    return redacted, secrets


def merge_secrets(redacted: Mapping[str, Any], secrets: Mapping[str, Any]) -> Json:
    """The request as it was given: the inverse of ``split_secrets``."""
    request: Json = copy.deepcopy(dict(redacted))
    if "url" in secrets:
        request["url"] = secrets["url"]
    seeds = (request.get("crawl") or {}).get("urls")
    for n, seed in (secrets.get(_SEED_URLS) or {}).items():
        if isinstance(seeds, list) and int(n) < len(seeds):
            seeds[int(n)] = seed
    if "auth" in secrets:
        request["auth"] = copy.deepcopy(secrets["auth"])
    return request


def public_request(redacted: Mapping[str, Any]) -> Json:
    """The stored request without its ``auth`` summary: everything a run is steered by
    (start URLs, crawl, level) and no secret, valid as a request."""
    return {key: value for key, value in redacted.items() if key != "auth"}


def with_credentials(url: str, given: list[str]) -> str:
    """``url`` with the ``user:password@`` of the first URL of ``given`` on its origin that
    has one (the credentials a request gave for its site), else ``url`` unchanged. Pages are
    stored and queued without credentials; a browser needs them on every navigation, since
    each may happen in a fresh context."""
    origin = origin_of(url)
    for candidate in given:
        parts = urlsplit(candidate)
        if parts.username is not None and origin_of(candidate) == origin:
            userinfo = parts.netloc.rsplit("@", 1)[0]
            target = urlsplit(without_credentials(url))
            return urlunsplit(target._replace(netloc=f"{userinfo}@{target.netloc}"))
    return url


def _has_credentials(url: str) -> bool:
    return without_credentials(url) != url


def _summary(auth: Any) -> Any:
    """What was given, without any of it: the key names, each value replaced by ``"***"``
    (an empty one, which holds nothing, kept as it is)."""
    if isinstance(auth, dict):
        return {key: REDACTED if value else value for key, value in auth.items()}
    return REDACTED
