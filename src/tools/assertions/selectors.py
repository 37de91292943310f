"""Selector validation for test_validate_selectors: one page-side pass over a list of selectors.

All selectors are checked in a single evaluation without waiting, so a list of
two hundred costs one round trip; suggestions for a selector that matches
nothing are computed and verified in the page, where the ids and classes are.
"""

from __future__ import annotations

from typing import Any

from cdpdriver.scripts import call_expression, load_script

from .. import locate
from ..session import ToolSession


async def validate(session: ToolSession, selectors: list[str]) -> list[dict[str, Any]]:
    """Per selector: valid, exists, visible, count, visible_count, error and suggestions."""
    return await locate.evaluate(session, call_expression(load_script("tools", "validate_selectors"), selectors))
