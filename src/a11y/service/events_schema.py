"""What ``GET /audits/{id}/events`` sends, for the OpenAPI document: each event's ``data``
as a model, and the stream's framing as a pattern, so that a generated client knows what it
reads and a fuzzer can check every answer it gets.

The payloads are written by :mod:`jobs.events` (their one source); these models only describe
them, and a test holds the two together on real runs.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from audit.models import ErrorInfo
from audit.openapi import JsonSchemaMode, SchemaRef
from jobs.events import PAGE_DONE, PAGE_FAILED, PAGE_STARTED, RUN_DONE, RUN_PROGRESS, RUN_STARTED
from jobs.store import RUN_STATUSES

RunStatus = Literal[RUN_STATUSES]  # type: ignore[valid-type]


class _EventData(BaseModel):
    """An event's data: JSON (camelCase) names, nothing else."""

    model_config = ConfigDict(
        extra="forbid", alias_generator=to_camel, validate_by_name=True, serialize_by_alias=True
    )


class RunStartedData(_EventData):
    run_id: str = Field(description="The run.")


class PageStartedData(_EventData):
    url: str = Field(description="The page now being audited.")
    depth: int = Field(ge=0, description="Its link depth from the start URL.")


class PageDoneData(_EventData):
    url: str
    status: Literal["ok", "failed", "skipped"] = Field(description="As the result's page.")
    score: float | None = Field(description="The page's score; null when not audited.")
    findings: int = Field(ge=0)
    critical: int = Field(ge=0)
    serious: int = Field(ge=0)
    moderate: int = Field(ge=0)
    minor: int = Field(ge=0)
    duration_ms: int | None = Field(description="How long the page took, when measured.")


class PageFailedData(_EventData):
    url: str
    error: ErrorInfo | None = Field(description="Why the page could not be audited.")


class RunProgressData(_EventData):
    done: int = Field(ge=0, description="Pages finished (audited, failed or skipped).")
    queued: int = Field(ge=0, description="Pages waiting or being audited.")
    failed: int = Field(ge=0)
    findings: int = Field(ge=0, description="WCAG findings so far.")


class RunDoneData(_EventData):
    status: RunStatus = Field(description="How the run ended.")
    score: float | None = Field(description="The run's score; null unless it completed.")
    total_pages: int = Field(ge=0)
    total_findings: int = Field(ge=0)


#: Each event type with the model of its ``data``, in the order a run sends them.
EVENTS: dict[str, type[_EventData]] = {
    RUN_STARTED: RunStartedData,
    PAGE_STARTED: PageStartedData,
    PAGE_DONE: PageDoneData,
    PAGE_FAILED: PageFailedData,
    RUN_PROGRESS: RunProgressData,
    RUN_DONE: RunDoneData,
}
MODELS: list[tuple[type[_EventData], JsonSchemaMode]] = [(m, "serialization") for m in EVENTS.values()]

#: The whole body as the service frames it (:mod:`a11y.service.sse`): events of the types
#: above, ``id``, ``event`` and one line of JSON ``data`` each, and comment lines (heartbeats).
STREAM_PATTERN = (
    r"^(?::[^\n]*\n\n|id: [0-9]+\nevent: (?:"
    + "|".join(re.escape(name) for name in EVENTS)
    + r")\ndata: [^\n]*\n\n)*$"
)


def events_content(use: SchemaRef) -> dict[str, Any]:
    """The ``content`` of the stream's 200 answer: the body as a string of that framing, and
    (``x-events``) each event type's ``data`` schema, referenced from the components."""
    names = ", ".join(EVENTS)
    return {
        "text/event-stream": {
            "schema": {
                "type": "string",
                "pattern": STREAM_PATTERN,
                "description": (
                    f"Events ({names}), each an 'id: N' line (send N back as Last-Event-ID to "
                    "resume after it), an 'event: TYPE' line and one 'data: JSON' line, then a "
                    "blank line; the JSON of each type is described in x-events. A comment "
                    "line (': heartbeat') keeps a quiet stream alive. run.done comes last."
                ),
            },
            "x-events": {name: use(model, "serialization") for name, model in EVENTS.items()},
        }
    }
