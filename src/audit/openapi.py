"""The OpenAPI document of the service, generated from the same models that validate its
requests and shape its answers (:mod:`audit.models`), so the contract cannot drift from the
code; the front ends add their own paths (:class:`OpenApiPaths`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from .meta import package_version
from .models import AUDIT_ERROR_CODES, AuditRequest, AuditResult, ErrorBody, HealthStatus

_ERROR_RESPONSES = {
    "400": "Invalid request: invalid_json, invalid_request (details: one {field, message} per "
    "bad field), unsupported_media_type, payload_too_large (body over 64 KiB), llm_not_configured.",
    "401": "unauthorized: auth is on and the bearer token is missing, wrong or revoked.",
    "413": "payload_too_large: the body is over 64 KiB (this service answers 400 with the "
    "same code; 413 is listed for front proxies that enforce the limit themselves).",
    "415": "unsupported_media_type: the content type is not application/json (this service "
    "answers 400 with the same code; 415 is listed for proxies and future use).",
    "500": f"The audit failed: {', '.join(AUDIT_ERROR_CODES)}.",
    "503": "overloaded: the queue is full; retry after the Retry-After header.",
}


JsonSchemaMode = Literal["validation", "serialization"]
#: ``use(Model, mode)``: the ``$ref`` to a model's schema in the document's components.
SchemaRef = Callable[[type[BaseModel], JsonSchemaMode], dict[str, Any]]


@dataclass(frozen=True)
class OpenApiPaths:
    """More paths for the document, described by the front end that serves them: the models
    their bodies use (generated into the same components as the audit's, in one pass, so a
    model shared by both is one schema) and a function that builds the path items from
    references to those models."""

    models: Sequence[tuple[type[BaseModel], JsonSchemaMode]]
    build: Callable[[SchemaRef], dict[str, Any]]


def json_content(schema: dict[str, Any]) -> dict[str, Any]:
    """An OpenAPI ``content`` map with one JSON body of ``schema``."""
    return {"application/json": {"schema": schema}}


def openapi_schema(*more: OpenApiPaths) -> dict[str, Any]:
    """OpenAPI 3.1 document for POST /audit and GET /health (and the paths of ``more``),
    generated from the models."""
    ref = "#/components/schemas/{model}"
    core: list[tuple[type[BaseModel], JsonSchemaMode]] = [
        (AuditRequest, "validation"),
        (AuditResult, "serialization"),
        (HealthStatus, "serialization"),
        (ErrorBody, "serialization"),
    ]
    wanted = list(dict.fromkeys([*core, *(pair for extra in more for pair in extra.models)]))
    refs, top = models_json_schema(wanted, ref_template=ref)
    schemas = top.get("$defs", {})

    def use(model: type[BaseModel], mode: JsonSchemaMode) -> dict[str, Any]:
        return refs[(model, mode)]

    error = use(ErrorBody, "serialization")
    audit_responses: dict[str, Any] = {
        "200": {
            "description": "Audit completed.",
            "content": json_content(use(AuditResult, "serialization")),
        }
    }
    for status, text in _ERROR_RESPONSES.items():
        audit_responses[status] = {"description": text, "content": json_content(error)}
    audit_responses["503"]["headers"] = {
        "Retry-After": {"description": "Seconds to wait.", "schema": {"type": "integer"}}
    }
    health = use(HealthStatus, "serialization")
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "a11y audit service",
            "version": package_version(),
            "description": "WCAG audits of web pages with axe-core in headless Chromium.",
        },
        "paths": {
            "/audit": {
                "post": {
                    "operationId": "audit",
                    "summary": "Run an accessibility audit.",
                    "security": [{"bearerAuth": []}, {}],
                    "requestBody": {
                        "required": True,
                        "content": json_content(use(AuditRequest, "validation")),
                    },
                    "responses": audit_responses,
                }
            },
            "/health": {
                "get": {
                    "operationId": "health",
                    "summary": "Health check.",
                    "responses": {
                        "200": {"description": "Healthy.", "content": json_content(health)},
                        "503": {
                            "description": "Unhealthy: the browser cannot be started.",
                            "content": json_content(health),
                        },
                    },
                }
            },
            **{path: item for extra in more for path, item in extra.build(use).items()},
        },
        "components": {
            "schemas": schemas,
            "securitySchemes": {
                "bearerAuth": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "Required when the server runs with --token or holds API "
                    "tokens (a11y token create); each operation's x-scope names the scope it "
                    "needs (read < submit < admin).",
                }
            },
        },
    }
