"""The OpenAPI document this server serves: the one the models make, with what depends on
the server added, so that it refuses exactly what this server refuses.

- The answers of outages (:mod:`.outages`): 503 and 507 on every operation that reads or
  writes runs.
- The scope each operation needs (``x-scope``) and its 403 answer (:mod:`.auth_api`).
- The LLM providers usable here. ``POST /audit`` with ``llm.enabled`` is refused
  ``400 llm_not_configured`` for a provider whose key or URL this server's environment lacks;
  so the request body allows ``llm.enabled: true`` only with a provider that is configured
  (and needs ``llm.provider`` named when the default one is not).

The document is made once per set of usable providers (making it is about 0.1 s of
pydantic, and a test suite starts hundreds of apps), and served as it is, never changed.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Mapping
from typing import Any

from audit.llm.config import provider_configured
from audit.models import PROVIDERS, LlmOptions
from audit.openapi import openapi_schema

from .artifacts_api import ARTIFACTS_OPENAPI
from .auth_api import AUTH_OPENAPI, with_scope_answers
from .findings_api import FINDINGS_OPENAPI
from .jobs_schema import JOBS_OPENAPI
from .outages import with_outage_answers
from .problems_api import PROBLEMS_OPENAPI
from .sites_schema import SITES_OPENAPI


def served_openapi(environ: Mapping[str, str]) -> dict[str, Any]:
    """The document for a server with ``environ`` (its LLM keys and URLs)."""
    usable = tuple(p for p in PROVIDERS if provider_configured(p, environ)[0])
    return _document(usable)


@functools.cache
def _models_document() -> dict[str, Any]:
    document = openapi_schema(JOBS_OPENAPI, SITES_OPENAPI, ARTIFACTS_OPENAPI, PROBLEMS_OPENAPI,
                              FINDINGS_OPENAPI, AUTH_OPENAPI)
    return with_scope_answers(with_outage_answers(document))


@functools.cache
def _document(usable: tuple[str, ...]) -> dict[str, Any]:
    document = copy.deepcopy(_models_document())
    request = document["components"]["schemas"]["AuditRequest"]
    request.setdefault("allOf", []).append({"properties": {"llm": _llm_rule(usable)}})
    return document


def _llm_rule(usable: tuple[str, ...]) -> dict[str, Any]:
    """``llm`` off, or on with a usable provider (named, when the default one is not)."""
    off = {"properties": {"enabled": {"const": False}}}
    if not usable:
        return off
    on: dict[str, Any] = {"properties": {"provider": {"enum": list(usable)}}}
    if LlmOptions.model_fields["provider"].default not in usable:
        on["required"] = ["provider"]
    return {"anyOf": [off, on]}
