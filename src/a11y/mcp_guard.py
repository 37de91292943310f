"""The guard rails of ``a11y mcp`` on the protocol's side: flags, instructions, results, questions.

The rails themselves live in :mod:`tools.guard` (rules, request interception, proxy, per-tab
set-up, tool checks); this module is where they meet MCP:

- the command-line flags and the :class:`~tools.guard.policy.GuardConfig` they make;
- the sentences the server's instructions gain (the page-text marker format, what is refused);
- each result's data: secret values redacted, page text wrapped in markers, then cut to the
  result budget (a cut never leaves a secret's head or an open marker behind);
- each call's :class:`~tools.guard.confirm.Confirmations` under ``--confirm-actions``: asked
  inline (``elicitation/create``) where the client takes server requests, or gathered and
  asked as an ``input_required`` result (2026-07-28), whose retry carries the answers back
  with a ``requestState`` the server sealed (HMAC over the call it belongs to).

The option and instruction helpers use the standard library alone (they run before the
handshake); the rest imports the SDK and the tools lazily.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import hmac
import json
import os
import secrets as random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from tools.guard.boundaries import Boundaries
from tools.guard.policy import GuardConfig, parse_patterns
from tools.guard.secrets import Redactor, read_secrets, redact_logs

if TYPE_CHECKING:
    import mcp_types as types

    from tools.guard.confirm import Confirmations
    from tools.registry import Outcome
    from tools.session import ToolSession

CONFIRM_SCHEMA: dict[str, Any] = {"type": "object", "properties": {}}
_STATE_KEY = os.urandom(32)  # seals the requestState of this process's questions


def add_guard_options(parser: argparse.ArgumentParser) -> None:
    """``a11y mcp``'s guard-rail flags (docs/security.md)."""
    group = parser.add_argument_group("guard rails for hosted agents (docs/security.md)")
    group.add_argument("--allowed-origins", action="append", default=None, metavar="ORIGINS",
                       help="only these origins may be reached (scheme://host[:port], host[:port], "
                            "*.host; comma- or semicolon-separated, repeatable); WebRTC is off")
    group.add_argument("--blocked-origins", action="append", default=None, metavar="ORIGINS",
                       help="these origins may never be reached (same syntax); wins over --allowed-origins")
    group.add_argument("--no-js-evaluate", action="store_true",
                       help="refuse js_* evaluation, init scripts, element_evaluate, wait_for_function, "
                            "page_set_content, network_route, and javascript: / data: navigation")
    group.add_argument("--block-file-urls", action="store_true", help="refuse file: URLs (navigation and requests)")
    group.add_argument("--secrets", default=None, metavar="FILE",
                       help="NAME=value (or bare value) lines whose values are redacted from every result and log")
    group.add_argument("--content-boundaries", action="store_true",
                       help="wrap page-derived text in results in markers the instructions state")
    group.add_argument("--confirm-actions", action="store_true",
                       help="downloads, file uploads and form submissions to other origins need the "
                            "client's confirmation (elicitation); refused when it cannot be asked")


def guard_from_args(args: argparse.Namespace) -> GuardConfig | None:
    """The rails the flags ask for (None for none); ``ValueError`` saying what is wrong."""
    guard = GuardConfig(
        allowed=parse_patterns(getattr(args, "allowed_origins", None)),
        blocked=parse_patterns(getattr(args, "blocked_origins", None)),
        no_js_evaluate=bool(getattr(args, "no_js_evaluate", False)),
        block_file_urls=bool(getattr(args, "block_file_urls", False)),
        secrets=read_secrets(args.secrets) if getattr(args, "secrets", None) else (),
        boundary_nonce=random.token_hex(4) if getattr(args, "content_boundaries", False) else None,
        confirm_actions=bool(getattr(args, "confirm_actions", False)),
    )
    return guard if guard != GuardConfig() else None


def instructions(guard: GuardConfig | None) -> str:
    """What the server's instructions add for these rails."""
    if guard is None:
        return ""
    lines = []
    if guard.origins_ruled:
        lines.append("\n- Origins: the operator limits which origins this server reaches; a request to any "
                     "other (navigation, redirect, popup, frame, fetch, worker, WebSocket) fails, and tools "
                     "report blocked_by_policy naming the origin and the rule. WebRTC is off.")
    if guard.no_js_evaluate or guard.block_file_urls:
        refused = [what for what, on in (("running your own scripts (js_*, element_evaluate, wait_for_function, "
                                          "page_set_content, network_route) and javascript:/data: URLs",
                                          guard.no_js_evaluate),
                                         ("file: URLs", guard.block_file_urls)) if on]
        lines.append(f"\n- Refused here (blocked_by_policy): {'; '.join(refused)}.")
    if guard.confirm_actions:
        lines.append("\n- Downloads, file uploads and form submissions to another origin need your user's "
                     "confirmation; declined or unconfirmable ones fail (confirmation_declined, "
                     "confirmation_unavailable).")
    if guard.secrets:
        lines.append("\n- Secret values are shown as [REDACTED:NAME].")
    if guard.boundary_nonce:
        lines.append(Boundaries(guard.boundary_nonce).instructions())
    return "".join(lines)


@contextmanager
def redacting_logs(guard: GuardConfig | None) -> Iterator[None]:
    """For the server's life: every log record of the process has the secrets redacted."""
    if guard is None or not guard.secrets:
        yield
        return
    undo = redact_logs(Redactor(guard.secrets))
    try:
        yield
    finally:
        undo()


def shaped_data(data: Any, tool: str, guard: GuardConfig | None, max_chars: int) -> tuple[Any, int | None]:
    """A result's data as the agent may see it, within ``max_chars`` of JSON, and its size
    before the cut (None when it fitted): :func:`a11y.result_budget.fit` after the rails."""
    from .result_budget import fit

    if guard is None:
        return fit(data, max_chars)
    if guard.secrets:
        data = Redactor(guard.secrets).data(data)  # first, so a cut never shows half a secret
    if not guard.boundary_nonce:
        return fit(data, max_chars)
    boundaries = Boundaries(guard.boundary_nonce)
    data, wrapped = boundaries.wrap(data, tool)
    data, original = fit(data, max(0, max_chars - wrapped * len(boundaries.close)))
    return (boundaries.close_cut(data) if original is not None else data), original


def redacted_resource(result: Any, guard: GuardConfig | None) -> Any:
    """A ``resources/read`` answer with the secrets redacted from its text contents (a HAR, a
    report, a saved state); binary contents (images, videos) are not read (docs/security.md)."""
    if guard is None or not guard.secrets:
        return result
    redactor = Redactor(guard.secrets)
    for contents in result.contents:
        if getattr(contents, "text", None) is not None:
            contents.text = redactor.text(contents.text)
    return result


def strip_markers(args: dict[str, Any], guard: GuardConfig | None) -> dict[str, Any]:
    """The call's arguments without page-text markers (text passed back as it was shown)."""
    if guard is None or not guard.boundary_nonce:
        return args
    return Boundaries(guard.boundary_nonce).strip(args)


# -- confirmations ---------------------------------------------------------------------------


async def guarded_call(session: ToolSession, ctx: Any, params: Any, name: str, args: dict[str, Any],
                       guard: GuardConfig) -> Outcome | types.InputRequiredResult:
    """Run one call under the rails: confirmations gathered for it, refusals reported."""
    import trio

    from tools.errors import ToolError
    from tools.guard.confirm import DECLINED, outside_a_call
    from tools.registry import Outcome, call

    if not guard.confirm_actions or session.guard is None:
        return await call(session, name, args)
    answers = _answers(params, name, args)
    if answers is not None and not answers[0]:  # every question of the last round declined
        message = "; ".join(sorted(f"{kind} to {target}" for kind, target in answers[1]))
        return Outcome(name, False, ToolError(DECLINED, f"{name} was not run again: the client declined "
                                              f"{message}").body(), 0.0, args)
    confirmations = _confirmations(ctx, guard, answers)
    session.guard.confirmations = confirmations
    try:
        outcome = await call(session, name, args)
        with trio.move_on_after(guard.confirm_timeout + 5):
            await confirmations.settled()  # a download's question may still be out
    finally:
        session.guard.confirmations = outside_a_call()
    if confirmations.needed:
        return _input_required(confirmations, name, args, guard)
    if confirmations.refused:
        first = confirmations.refused[0]
        said = " ".join(error.message for error in confirmations.refused)
        if not outcome.ok:
            said += f" (then {name} failed: {outcome.data.get('error', {}).get('message', '')})"
        return Outcome(name, False, ToolError(first.code, said).body(), outcome.duration_ms, args)
    return outcome


def _confirmations(ctx: Any, guard: GuardConfig,
                   answers: tuple[frozenset[tuple[str, str]], frozenset[tuple[str, str]]] | None) -> Confirmations:
    from mcp_types.version import MODERN_PROTOCOL_VERSIONS

    from tools.guard.confirm import Confirmations

    granted, declined = answers if answers is not None else (frozenset(), frozenset())
    session = ctx.session
    capabilities = session.client_capabilities
    elicits = capabilities is not None and capabilities.elicitation is not None and (
        capabilities.elicitation.form is not None or capabilities.elicitation.url is None)
    common = {"granted": granted, "declined": declined, "timeout": guard.confirm_timeout}
    if not elicits:
        return Confirmations(**common)
    if getattr(ctx, "protocol_version", None) in MODERN_PROTOCOL_VERSIONS:
        return Confirmations(deferred=True, **common)
    if not session.can_send_request:
        return Confirmations(why_unavailable="this connection carries no requests from the server", **common)
    redactor = Redactor(guard.secrets)

    async def ask(question: str) -> bool:
        result = await session.elicit_form(redactor.text(question), CONFIRM_SCHEMA, related_request_id=ctx.request_id)
        return result.action == "accept"

    return Confirmations(ask=ask, **common)


def _input_required(confirmations: Confirmations, name: str, args: dict[str, Any],
                    guard: GuardConfig) -> types.InputRequiredResult:
    """The questions of a 2026-07-28 call, to be answered in its retry."""
    import mcp_types as types

    redactor = Redactor(guard.secrets)
    asked = [[n.kind, n.target] for n in confirmations.needed]
    requests = {f"confirm-{i}": types.ElicitRequest(params=types.ElicitRequestFormParams(
                    message=redactor.text(n.question), requested_schema=CONFIRM_SCHEMA))
                for i, n in enumerate(confirmations.needed)}
    return types.InputRequiredResult(result_type="input_required", input_requests=requests,  # type: ignore[arg-type]
                                     request_state=_seal({"call": _call_key(name, args), "asked": asked}))


def _answers(params: Any, name: str, args: dict[str, Any],
             ) -> tuple[frozenset[tuple[str, str]], frozenset[tuple[str, str]]] | None:
    """(granted, declined) from a retry's answers and sealed state; None on a first call (or a
    state that is not this call's own)."""
    state = _unseal(getattr(params, "request_state", None))
    responses = getattr(params, "input_responses", None) or {}
    if state is None or state.get("call") != _call_key(name, args):
        return None
    granted, declined = set(), set()
    for i, (kind, target) in enumerate(state.get("asked", [])):
        response = responses.get(f"confirm-{i}")
        action = getattr(response, "action", None) if response is not None else None
        (granted if action == "accept" else declined).add((str(kind), str(target)))
    return frozenset(granted), frozenset(declined)


def _call_key(name: str, args: dict[str, Any]) -> str:
    text = json.dumps([name, args], sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _seal(payload: dict[str, Any]) -> str:
    body = base64.urlsafe_b64encode(json.dumps(payload, separators=(",", ":")).encode()).decode()
    tag = hmac.new(_STATE_KEY, body.encode(), hashlib.sha256).hexdigest()
    return f"{body}.{tag}"


def _unseal(token: Any) -> dict[str, Any] | None:
    if not isinstance(token, str) or "." not in token:
        return None
    body, tag = token.rsplit(".", 1)
    if not hmac.compare_digest(tag, hmac.new(_STATE_KEY, body.encode(), hashlib.sha256).hexdigest()):
        return None
    try:
        payload = json.loads(base64.urlsafe_b64decode(body.encode()))
    except ValueError:
        return None
    return payload if isinstance(payload, dict) else None
