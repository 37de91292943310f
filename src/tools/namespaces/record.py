"""record_: record the action tools an agent calls, and export them as a replayable script.

Recording is an observer on the session: every successful call of a tool
declared with ``records=True`` (navigate, click, fill, type, press, select,
check, js_evaluate…) is kept with the arguments exactly as the caller gave
them, so the exported ``steps`` array runs unchanged through ``batch_execute``.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field, ValidationError

from ..errors import ToolError
from ..models import NoInput, ToolInput, ToolOutput
from ..registry import REGISTRY, Outcome, Tool, tool

if TYPE_CHECKING:
    from ..session import ToolSession


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass
class Recording:
    """One session's recording: its metadata and the steps kept so far."""

    started: bool = False  # a recording was ever started in this session
    active: bool = False
    name: str = ""
    description: str = ""
    base_url: str = ""
    started_at: str | None = None
    stopped_at: str | None = None
    steps: list[dict[str, Any]] = field(default_factory=list)

    def observe(self, spec: Tool, arguments: dict[str, Any], outcome: Outcome) -> None:
        """Keep successful action calls while recording; failed calls would break a replay."""
        if self.active and spec.records and outcome.ok:
            self.steps.append({"tool": spec.name, "args": copy.deepcopy(arguments), "timestamp": _now()})

    def script(self) -> dict[str, Any]:
        """The exported script: metadata plus ``steps``, each exactly a batch_execute step."""
        return {
            "name": self.name,
            "description": self.description,
            "baseUrl": self.base_url,
            "started_at": self.started_at,
            "stopped_at": self.stopped_at,
            "stepCount": len(self.steps),
            "steps": [{"tool": s["tool"], "args": s["args"]} for s in self.steps],
            "timestamps": [s["timestamp"] for s in self.steps],
        }


def recording(session: ToolSession) -> Recording:
    """The session's recording; the first use subscribes it to every tool call."""

    def create() -> Recording:
        rec = Recording()
        session.observers.append(rec.observe)
        return rec

    return session.state("record", create)


# -- record_start --------------------------------------------------------------------


class StartInput(ToolInput):
    name: str = Field(default="", max_length=200)
    description: str = Field(default="", max_length=2000)
    baseUrl: str = Field(default="", max_length=2000)


class StartOutput(ToolOutput):
    message: str
    name: str
    started_at: str = Field(description="ISO 8601 UTC time the recording started")


@tool("record_start", StartInput, StartOutput, effect="deletes")
async def record_start(session: ToolSession, args: StartInput) -> StartOutput:
    """Record each successful action tool call as a step."""
    rec = recording(session)
    if rec.active:
        raise ToolError("already_started",
                        f"recording {rec.name or '(unnamed)'!r} is already running with {len(rec.steps)} "
                        "steps; call record_stop (or record_export) before starting another")
    rec.started, rec.active = True, True
    rec.name, rec.description, rec.base_url = args.name, args.description, args.baseUrl
    rec.started_at, rec.stopped_at = _now(), None
    rec.steps.clear()
    return StartOutput(message=f"recording {args.name or '(unnamed)'!r} started", name=args.name,
                       started_at=rec.started_at)


# -- record_stop ---------------------------------------------------------------------


class StopOutput(ToolOutput):
    message: str
    stepCount: int = Field(description="Steps recorded")


@tool("record_stop", NoInput, StopOutput, effect="sets")
async def record_stop(session: ToolSession, args: NoInput) -> StopOutput:
    """Stop recording; steps stay for record_export."""
    rec = recording(session)
    if not rec.active:
        raise ToolError("not_started", "no recording is running; call record_start first")
    rec.active, rec.stopped_at = False, _now()
    return StopOutput(message=f"recording {rec.name or '(unnamed)'!r} stopped with {len(rec.steps)} steps",
                      stepCount=len(rec.steps))


# -- record_get_status ---------------------------------------------------------------


class StatusOutput(ToolOutput):
    recording: bool = Field(description="True while actions are being recorded")
    name: str
    description: str
    baseUrl: str
    stepCount: int
    started_at: str | None = Field(description="ISO 8601 UTC start time; null if never started")
    stopped_at: str | None = Field(description="ISO 8601 UTC stop time; null while recording")
    last_step: str | None = Field(description="Tool name of the last recorded step")


@tool("record_get_status", NoInput, StatusOutput, effect="reads")
async def record_get_status(session: ToolSession, args: NoInput) -> StatusOutput:
    """Whether a recording runs, and its steps."""
    rec = recording(session)
    return StatusOutput(
        recording=rec.active, name=rec.name, description=rec.description, baseUrl=rec.base_url,
        stepCount=len(rec.steps), started_at=rec.started_at, stopped_at=rec.stopped_at,
        last_step=rec.steps[-1]["tool"] if rec.steps else None,
    )


# -- record_clear --------------------------------------------------------------------


class ClearOutput(ToolOutput):
    message: str
    cleared: int = Field(description="Steps removed")


@tool("record_clear", NoInput, ClearOutput, effect="deletes")
async def record_clear(session: ToolSession, args: NoInput) -> ClearOutput:
    """Remove the recorded steps."""
    rec = recording(session)
    cleared = len(rec.steps)
    rec.steps.clear()
    state = "recording continues" if rec.active else "not recording"
    return ClearOutput(message=f"cleared {cleared} steps ({state})", cleared=cleared)


# -- record_export -------------------------------------------------------------------


class ExportInput(ToolInput):
    format: Literal["json", "yaml"] = "json"


class ExportOutput(ToolOutput):
    script: str = Field(description=(
        "The script: name, description, baseUrl, started_at, stopped_at, stepCount, timestamps and "
        "steps; steps is an array of {tool, args} to pass unchanged as batch_execute's steps"))
    stepCount: int
    format: str
    replayable: bool = Field(description="True when batch_execute accepts every step")
    warnings: list[str] = Field(description="Steps batch_execute would refuse, and why")


def replay_problems(steps: list[dict[str, Any]]) -> list[str]:
    """Ask batch_execute's own input model about each step, so this never drifts from what it accepts."""
    batch = REGISTRY.get("batch_execute")
    if batch is None:
        return ["batch_execute is not available on this server"] if steps else []
    problems = []
    for index, step in enumerate(steps):
        try:
            batch.input_model.model_validate({"steps": [step]})
        except ValidationError:
            problems.append(f"step {index} ({step['tool']}) cannot run in batch_execute; replay it with a "
                            "direct call")
    return problems


@tool("record_export", ExportInput, ExportOutput, effect="reads")
async def record_export(session: ToolSession, args: ExportInput) -> ExportOutput:
    """The recorded steps as a script that batch_execute replays."""
    import yaml

    rec = recording(session)
    if not rec.started:
        raise ToolError("not_started", "nothing has been recorded; call record_start, act, then record_stop")
    script = rec.script()
    if args.format == "yaml":
        text = yaml.safe_dump(script, sort_keys=False, allow_unicode=True, default_flow_style=False)
    else:
        text = json.dumps(script, indent=2, ensure_ascii=False)
    problems = replay_problems(script["steps"])
    return ExportOutput(script=text, stepCount=len(rec.steps), format=args.format, replayable=not problems,
                        warnings=problems)
