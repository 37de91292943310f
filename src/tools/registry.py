"""The one registry: every tool is declared once, everything else is derived.

A declaration is a handler with its input and output models. The MCP tool
list, the ``--list-tools`` catalog, the docs and ``batch_execute`` all read
this registry (the first two through ``tool_list.json``, generated from it:
``tools.catalog``), so there is exactly one dispatcher: ``call``.

Each declaration also says what a call does to the world around it, its ``effect``: one
word (:data:`EFFECTS`) from which MCP's tool annotations derive, so a client deciding
whether to ask before a call reads what the declaration says, not a list kept elsewhere.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ValidationError

from . import action_snapshot, schema
from .errors import ToolError, from_exception, invalid_arguments
from .models import ToolImage, ToolOutput

if TYPE_CHECKING:
    from .session import ToolSession

Handler = Callable[["ToolSession", Any], Awaitable[BaseModel]]

Effect = Literal["reads", "sets", "acts", "deletes", "destroys"]

#: What a call may do, with any arguments (MCP's hints say "may"), to what the agent works
#: with: the browser (pages, tabs, cookies, storage, emulation, routes), the server's own
#: records (console and request buffers, recordings, test checks, traces) and the files in the
#: output directory. Each word is (readOnlyHint, destructiveHint, idempotentHint):
#:
#: - ``reads``: changes nothing (the refs and snapshot ids a read hands out are its answer);
#: - ``sets``: changes something to what the arguments say, so a repeat changes nothing more
#:   (a viewport, a field's value, a started trace), and deletes nothing kept;
#: - ``acts``: each call does something again (a click, a new tab, a check in the report, a
#:   new file), and deletes nothing kept;
#: - ``deletes``: may delete or overwrite what is kept (cookies, web storage, saved states,
#:   recorded steps and checks, buffered messages, extensions, the browser) or runs code of the
#:   caller's that may; a repeat deletes nothing more;
#: - ``destroys``: as ``deletes``, and each call may delete more (close the current tab).
#:
#: Kept means it outlives the page: what a page's own scripts do in answer to an action (a
#: click that submits a form) is the open world, ``open_world``, not the tool's effect. Files
#: a tool produces (screenshots, PDFs, traces, reports) are output it adds, even at a path the
#: caller names twice; a saved state is kept data, which state_save may overwrite.
EFFECTS: dict[str, tuple[bool, bool, bool]] = {
    "reads": (True, False, True),
    "sets": (False, False, True),
    "acts": (False, False, False),
    "deletes": (False, True, True),
    "destroys": (False, True, False),
}


def mcp_annotations(effect: Effect, open_world: bool) -> dict[str, bool]:
    """MCP's tool annotations, spelled as tools/list sends them (all four, always)."""
    read_only, destructive, idempotent = EFFECTS[effect]
    return {"readOnlyHint": read_only, "destructiveHint": destructive, "idempotentHint": idempotent,
            "openWorldHint": open_world}


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    input_model: type[BaseModel]
    output_model: type[BaseModel]
    handler: Handler = field(compare=False)
    records: bool = False
    effect: Effect = "acts"
    open_world: bool = False
    long: bool = False

    @property
    def namespace(self) -> str:
        return self.name.split("_", 1)[0]

    @property
    def annotations(self) -> dict[str, bool]:
        return mcp_annotations(self.effect, self.open_world)

    @cached_property
    def input_schema(self) -> dict[str, Any]:
        return schema.input_schema(self.input_model)

    @cached_property
    def output_schema(self) -> dict[str, Any]:
        return action_snapshot.output_schema(self.input_model, schema.output_schema(self.output_model))


REGISTRY: dict[str, Tool] = {}


def tool(
    name: str,
    input: type[BaseModel],
    output: type[BaseModel],
    *,
    description: str | None = None,
    records: bool = False,
    effect: Effect,
    open_world: bool = False,
    long: bool = False,
) -> Callable[[Handler], Handler]:
    """Declare a tool: the only way a handler becomes one.

    Used as a decorator, the description is the handler's docstring; a tool built
    from a table (one handler shape, many rows) passes its row's ``description``
    and calls ``tool(name, In, Out, description=…)(handler)``. Either text is
    written for an agent and laid out like a docstring. ``records`` marks tools
    whose calls a recording keeps (they change the page).

    ``effect`` is required, so no tool reaches tools/list without saying what it does
    (:data:`EFFECTS`); ``open_world`` marks a call that may make the browser reach hosts the
    arguments or a page choose: it navigates or fetches, runs code the caller wrote, or
    delivers input whose default action follows a link or submits a form.

    ``long`` marks a call that can run past a few seconds (an audit, a trace or video being
    written out): the MCP server runs it as a task for a client that declared the tasks
    extension and reports its progress (:mod:`a11y.mcp_tasks`).
    """

    def register(handler: Handler) -> Handler:
        if name in REGISTRY:
            raise ValueError(f"tool {name} declared twice")
        if name.count("_") < 1:
            raise ValueError(f"tool name {name} is not namespace_verb_target")
        text = _paragraphs(inspect.cleandoc(description if description is not None else handler.__doc__ or ""))
        if not text:
            raise ValueError(f"tool {name} has no description")
        if effect not in EFFECTS:
            raise ValueError(f"tool {name}: effect {effect!r} is not one of {', '.join(EFFECTS)}")
        if records and effect == "reads":
            raise ValueError(f"tool {name}: a recording keeps it because it changes the page, so it cannot only read")
        REGISTRY[name] = Tool(name, text, input, output, handler, records, effect, open_world, long)
        return handler

    return register


def _paragraphs(text: str) -> str:
    """Docstring line breaks are layout, not meaning: keep only paragraph breaks."""
    return "\n\n".join(" ".join(p.split()) for p in text.split("\n\n") if p.strip())


@dataclass
class Outcome:
    """The result of one tool call, as both the MCP server and batch_execute need it."""

    tool: str
    ok: bool
    data: dict[str, Any]
    duration_ms: float
    arguments: dict[str, Any]
    images: list[ToolImage] = field(default_factory=list)


Observer = Callable[[Tool, dict[str, Any], Outcome], None]


async def call(session: ToolSession, name: str, arguments: dict[str, Any] | None) -> Outcome:
    """Validate once, run the handler, shape the output; failures become error bodies.

    Images a handler attached to its output travel beside the data, never inside it. A tool
    that changes the page adds the snapshot asked for after it (:mod:`tools.action_snapshot`).
    """
    started = time.perf_counter()
    args = dict(arguments or {})
    images: list[ToolImage] = []
    spec = REGISTRY.get(name) if session.exposes(name) else None
    try:
        if spec is None:
            raise ToolError("not_found", f"no tool named {name!r}; list the tools to see what exists")
        try:
            parsed = spec.input_model.model_validate(args)
        except ValidationError as exc:
            raise invalid_arguments(exc, name) from None
        if session.guard is not None:  # the guard rails (tools.guard.calls)
            await session.guard.check(session, name, args)
        watch = action_snapshot.watch(session, parsed)  # the tool changes the page, and a snapshot was asked
        result = await spec.handler(session, parsed)
        data = result.model_dump(mode="json")
        if watch is not None:
            data["snapshot"] = await watch.snapshot(session)
        images = result.images if isinstance(result, ToolOutput) else []
        ok = True
    except Exception as exc:  # every failure becomes a typed error result
        error = from_exception(exc)
        if session.guard is not None:
            error = session.guard.explain(session, error)
        if error.code == "internal_error":
            session.log.exception("tool %s failed", name)
        if error.code == "no_browser":
            await session.forget_dead_browser()
        data, ok = error.body(), False
    outcome = Outcome(name, ok, data, (time.perf_counter() - started) * 1000, args, images)
    if spec is not None:
        session.notify(spec, outcome)
    return outcome
