"""The login runner the front ends hand the engine: ``auth.login`` steps run by the tools'
own dispatcher, exactly as ``batch_execute`` runs its steps.

The engine (floor 2) may not import the tools, so the service, the worker and the CLI give
it :func:`run_login_steps` (``EngineLimits.login_runner``). It wraps the login tab the
engine opened in a tools session of its own: that tab is the session's only one, in the
audit's browser context, and the session neither launches nor closes a browser. The steps go
to ``batch_execute`` through the registry: all are checked before the first runs, each runs
through ``registry.call`` as a direct call would, and the first failure stops them. Nothing
is recorded or kept: no recorder observes this session, and its tab's buffers end with it.
The tools are imported on the first login, so a front end pays nothing for them otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from audit.auth import LoginStepFailed
from audit.request_options import LoginStep
from cdpdriver import Page

_STEP_FIELD = re.compile(r"^steps\.(\d+)\.")


async def run_login_steps(page: Page, steps: Sequence[LoginStep]) -> None:
    """Run ``steps`` in ``page``; raises :class:`LoginStepFailed` for the first that fails
    (or, when the batch refused them all up front, for the first it named)."""
    from tools import catalog, registry
    from tools.page_session import session_on_page

    catalog.load()
    batch = {"steps": [step.model_dump(mode="json") for step in steps], "stop_on_error": True}
    async with session_on_page(page) as session:
        outcome = await registry.call(session, "batch_execute", batch)
    _raise_first_failure(outcome.ok, outcome.data, steps)


def _raise_first_failure(ok: bool, data: dict[str, Any], steps: Sequence[LoginStep]) -> None:
    if not ok:  # refused before any step ran: its details name the step's field
        error = data.get("error") or {}
        details = error.get("details") or [{}]
        found = _STEP_FIELD.match(str(details[0].get("field", "")))
        index = int(found.group(1)) if found else 0
        tool = steps[index].tool if index < len(steps) else "batch_execute"
        raise LoginStepFailed(index, tool, str(error.get("code", "error")), str(error.get("message", "")))
    for result in data.get("results") or []:
        if not result.get("ok"):
            error = result.get("error") or {}
            raise LoginStepFailed(
                int(result.get("index", 0)), str(result.get("tool", "")),
                str(error.get("code", "error")), str(error.get("message", "")),
            )
