"""batch_: several tool calls in one MCP call, through the one registry dispatcher.

Every step goes through ``registry.call`` exactly as a direct call would
(validation, error mapping, observers such as the recorder), so a step behaves
the same inside and outside a batch. Steps are checked before any of them runs:
a batch with an unknown tool or bad arguments does nothing.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field, ValidationError, model_serializer

from .. import registry
from ..errors import ToolError, invalid_arguments
from ..models import ToolImage, ToolInput, ToolOutput
from ..registry import tool

if TYPE_CHECKING:
    from ..session import ToolSession

# The tools a step may run: tool-server.md's "Batch execution" list first.
BATCH_TOOLS = (
    "page_navigate", "page_go_back", "page_go_forward", "page_reload",
    "page_get_title", "page_get_url", "page_screenshot",
    "element_click", "element_fill", "element_type", "element_get_text",
    "js_evaluate",
    "wait_for_selector", "wait_for_load",
    "http_request",
    # Every other action the recorder keeps, so a record_export script replays unchanged.
    "dialog_handle", "element_check", "element_clear", "element_dispatch_event", "element_double_click",
    "element_drag_to", "element_evaluate", "element_fill_form", "element_focus", "element_hover",
    "element_press", "element_scroll_into_view", "element_select", "element_set_files", "element_tap",
    "element_uncheck", "frame_select", "frame_select_main", "input_keyboard_down", "input_keyboard_press",
    "input_keyboard_type", "input_keyboard_up", "input_mouse_click", "input_mouse_down", "input_mouse_drag",
    "input_mouse_move", "input_mouse_up", "input_mouse_wheel", "input_touch_swipe", "input_touch_tap",
    "js_add_script", "js_add_style", "js_init_script", "page_close", "page_new", "page_scroll",
    "page_set_content", "tab_close", "tab_select",
)
MAX_STEPS = 100

StepTool = Literal[BATCH_TOOLS]  # type: ignore[valid-type]


class BatchStep(ToolInput):
    tool: StepTool
    args: dict[str, Any] = Field(default_factory=dict)


class BatchInput(ToolInput):
    steps: list[BatchStep] = Field(min_length=1, max_length=MAX_STEPS)
    stop_on_error: bool = True
    continue_on_error: bool = False


class StepResult(ToolOutput):
    index: int = Field(description="0-based position of the step")
    tool: str
    ok: bool
    result: dict[str, Any] | None = Field(default=None, description="The tool's output, when it succeeded")
    error: dict[str, Any] | None = Field(default=None, description="{code, message}, when it failed")
    duration_ms: int

    @model_serializer(mode="wrap")
    def _only_result_or_error(self, handler: Any):  # unannotated: keeps the field schema
        data = handler(self)
        data.pop("error" if self.ok else "result", None)
        return data


class BatchOutput(ToolOutput):
    results: list[StepResult] = Field(description="One per step that ran")
    total_steps: int
    success_count: int
    failure_count: int
    stopped_early: bool = Field(description="True when a failure stopped the batch before its last step")
    total_duration_ms: int


def _check(session: ToolSession, steps: list[BatchStep]) -> None:
    """Refuse the whole batch up front when a step could not even start."""
    for index, step in enumerate(steps):
        spec = registry.REGISTRY.get(step.tool)
        if spec is None or not session.exposes(step.tool):
            raise ToolError("invalid_arguments", f"steps.{index}.tool: {step.tool} is not available on this server",
                            [{"field": f"steps.{index}.tool", "message": "is not available on this server"}])
        try:
            spec.input_model.model_validate(step.args)
        except ValidationError as exc:
            error = invalid_arguments(exc, step.tool)
            details = [{**d, "field": f"steps.{index}.args.{d['field']}"} for d in error.details or []]
            summary = "; ".join(f"{d['field']}: {d['message']}" for d in details)
            raise ToolError("invalid_arguments", f"batch_execute: {summary}", details) from None


@tool("batch_execute", BatchInput, BatchOutput, effect="destroys", open_world=True, long=True)
async def batch_execute(session: ToolSession, args: BatchInput) -> BatchOutput:
    """Run {tool, args} steps in order in one call; arguments are all checked first, screenshots
    come as images."""
    _check(session, args.steps)
    keep_going = args.continue_on_error or not args.stop_on_error
    started = time.perf_counter()
    results: list[StepResult] = []
    images: list[ToolImage] = []
    for index, step in enumerate(args.steps):
        outcome = await registry.call(session, step.tool, step.args)
        images.extend(outcome.images)
        results.append(StepResult(
            index=index, tool=step.tool, ok=outcome.ok, duration_ms=round(outcome.duration_ms),
            result=outcome.data if outcome.ok else None,
            error=None if outcome.ok else outcome.data.get("error"),
        ))
        if not outcome.ok and not keep_going:
            break
    failures = sum(1 for r in results if not r.ok)
    return BatchOutput(
        results=results, total_steps=len(args.steps), success_count=len(results) - failures,
        failure_count=failures, stopped_early=len(results) < len(args.steps),
        total_duration_ms=round((time.perf_counter() - started) * 1000),
    ).with_images(*images)
