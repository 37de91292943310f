"""``GET /auth/self``: what the request's token may do (the dashboard asks, to show only what
it allows), and what the OpenAPI document says about scopes: the scope each operation needs
(``x-scope``) and, where that is more than ``read``, its ``403 forbidden`` answer.

The routes enforce their scopes themselves (:func:`.auth.authorize` with the scope, in each
route); :data:`OPERATION_SCOPES` states the same for the document, and the scope tests hold
the two together.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field
from quart import Response
from quart_trio import QuartTrio

from audit.models import ErrorBody
from audit.openapi import JsonSchemaMode, OpenApiPaths, SchemaRef, json_content

from .auth import authorize
from .handlers import Service
from .jobs_schema import _SECURITY, _Answer
from .replies import Refused, json_response

#: The scope each operation needs beyond ``read`` (every other protected one needs ``read``).
OPERATION_SCOPES: dict[tuple[str, str], str] = {
    ("/audit", "post"): "submit",
    ("/audits", "post"): "submit",
    ("/audits/{id}", "delete"): "submit",  # and admin with ?purge=true
    ("/sites/{site}/baseline", "put"): "admin",
}


class TokenSelf(_Answer):
    """Body of ``GET /auth/self``."""

    name: str | None = Field(
        description="The token's name; '--token' for the service's own token; null when auth is off."
    )
    scope: Literal["read", "submit", "admin"] = Field(
        description="read: runs, reports and history; submit: also start runs and cancel its "
        "own; admin: also cancel or delete any run and set baselines.",
    )
    sites: list[str] | None = Field(
        description="The origins (scheme://host[:port]) the token is limited to; null for every site."
    )


def register_auth_routes(app: QuartTrio, service: Service) -> None:
    async def auth_self() -> Response:
        try:
            principal = await authorize(service, "read")
        except Refused as refusal:
            return refusal.response
        return json_response(TokenSelf(**principal.as_json()).model_dump(mode="json"))

    app.add_url_rule("/auth/self", "auth_self", auth_self, methods=["GET"])


def with_scope_answers(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` (changed in place and returned) with ``x-scope`` on every protected
    operation and a ``403`` answer on those that need more than ``read``."""
    forbidden = {
        "description": "forbidden: the token's scope is lower than the operation needs (x-scope; "
        "DELETE with purge=true needs admin; the message names the scope needed), or, starting "
        "an audit, the URL is of a site the token is not limited to (details name the field url).",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}},
    }
    unknown = set(OPERATION_SCOPES) - {(p, m) for p, ops in document["paths"].items() for m in ops}
    if unknown:
        raise ValueError(f"OPERATION_SCOPES names operations the document lacks: {sorted(unknown)}")
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if "security" not in operation:
                continue  # open to everyone: /health
            scope = OPERATION_SCOPES.get((path, method), "read")
            operation["x-scope"] = scope
            if scope != "read":
                operation["responses"].setdefault("403", forbidden)
    return document


def _paths(use: SchemaRef) -> dict[str, Any]:
    error = json_content(use(ErrorBody, "serialization"))
    return {
        "/auth/self": {
            "get": {
                "operationId": "authSelf",
                "summary": "What the request's token may do: its name, scope and sites.",
                "security": _SECURITY,
                "responses": {
                    "200": {"description": "The token's rights.",
                            "content": json_content(use(TokenSelf, "serialization"))},
                    "401": {"description": "unauthorized: auth is on and the bearer token is "
                            "missing, wrong or revoked.", "content": error},
                },
            },
        },
    }


_MODELS: list[tuple[type[Any], JsonSchemaMode]] = [
    (TokenSelf, "serialization"),
    (ErrorBody, "serialization"),
]
AUTH_OPENAPI = OpenApiPaths(models=_MODELS, build=_paths)
