"""A run's stored images over HTTP: ``GET /audits/{id}/artifacts/{name}`` (what the result
and the report add from them is :mod:`.evidence`).

Conventions are the jobs API's: the token first, then the run id (a run of a site the
token is not limited to is one that does not exist), then the name, then the store. A name is served only if it is one :mod:`audit.screenshots` makes
(``shot-<page>-<n>.png|jpg``, ``thumb-<page>.jpg``: one path segment, so an OpenAPI path parameter), so no path trick can reach anything
else; the bytes go out with their media type, ``nosniff`` and a policy that forbids any
content in them to run.
"""

from __future__ import annotations

from typing import Any

from quart import Response
from quart_trio import QuartTrio

from audit.models import ErrorBody
from audit.openapi import OpenApiPaths, SchemaRef, json_content
from audit.screenshots import ARTIFACT_NAME
from jobs.blocking import in_thread
from jobs.ids import is_run_id
from jobs.store import NotFound
from jobs.store.artifacts import get_artifact

from .auth import authorize, visible_run
from .handlers import Service
from .jobs_api import _jobs, _no_run
from .replies import Refused

#: Media types served as they are; anything else (never written by us) as bytes.
_IMAGE_TYPES = frozenset({"image/png", "image/jpeg"})


def register_artifact_routes(app: QuartTrio, service: Service) -> None:
    async def artifact(run_id: str, name: str) -> Response:
        try:
            principal = await authorize(service, "read")
            if not is_run_id(run_id):
                raise _no_run(run_id)
            if not ARTIFACT_NAME.fullmatch(name):
                raise _no_artifact(run_id)
            jobs = _jobs(service)
            await visible_run(jobs, principal, run_id)  # 404 for the run before 404 for the name
            try:
                stored = await in_thread(get_artifact, jobs.store, run_id, name)
            except NotFound:
                raise _no_artifact(run_id) from None
        except Refused as refusal:
            return refusal.response
        except NotFound:
            return _no_run(run_id).response
        media_type = stored.media_type if stored.media_type in _IMAGE_TYPES else "application/octet-stream"
        return Response(stored.data or b"", status=200, content_type=media_type, headers={
            "Cache-Control": "private, max-age=3600",
            "X-Content-Type-Options": "nosniff",
            "Content-Security-Policy": "default-src 'none'; sandbox",
        })

    app.add_url_rule("/audits/<run_id>/artifacts/<name>", "audits_artifact", artifact,
                     methods=["GET"])


def _no_artifact(run_id: str) -> Refused:
    return Refused(404, "not_found", f"Run {run_id} has no artifact of this name.")


def _paths(use: SchemaRef) -> dict[str, Any]:
    error = {"content": json_content(use(ErrorBody, "serialization"))}
    return {
        "/audits/{id}/artifacts/{name}": {
            "get": {
                "operationId": "auditArtifact",
                "summary": "An image of the run: a finding's screenshot or a page's thumbnail.",
                "security": [{"bearerAuth": []}, {}],
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}},
                    {"name": "name", "in": "path", "required": True,
                     "description": "shot-<page>-<n>.png|jpg or thumb-<page>.jpg, as "
                                    "?include=screenshots names them.",
                     "schema": {"type": "string", "pattern": f"^{ARTIFACT_NAME.pattern}$"}},
                ],
                "responses": {
                    "200": {"description": "The image.", "content": {
                        "image/png": {"schema": {"type": "string", "format": "binary"}},
                        "image/jpeg": {"schema": {"type": "string", "format": "binary"}},
                    }},
                    "401": {"description": "unauthorized: auth is on and the bearer token is "
                            "missing, wrong or revoked.", **error},
                    "404": {"description": "not_found: no such run (or none the token may see), "
                            "or no such image of it.", **error},
                },
            },
        },
    }


ARTIFACTS_OPENAPI = OpenApiPaths(models=[(ErrorBody, "serialization")], build=_paths)
