"""Renderers of an ``AuditResult`` for people and CI systems, one module per format."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..models import AuditResult
from ..screenshots import ScreenshotIndex

FORMATS: tuple[str, ...] = ("text", "json", "sarif", "junit", "html")
#: What a SARIF result or a JUnit test case stands for: one finding (per element, the
#: default, what baselines compare) or one problem.
GROUPS: tuple[str, ...] = ("findings", "problems")


def render(
    result: AuditResult,
    fmt: str,
    *,
    screenshots: ScreenshotIndex | None = None,
    history: Sequence[Mapping[str, Any]] | None = None,
    group: str = "findings",
) -> str:
    """The result rendered as ``text``, ``json``, ``sarif``, ``junit`` or ``html``; only the
    HTML report shows ``screenshots`` and the site's ``history``. ``group="problems"`` makes
    SARIF one result per problem and JUnit one test case per problem (docs/problems.md)."""
    fmt = fmt.lower()
    if group not in GROUPS:
        raise ValueError(f"unknown grouping {group!r}; expected one of {', '.join(GROUPS)}")
    if group == "problems" and fmt == "sarif":
        from .sarif_problems import render_problems_sarif

        return render_problems_sarif(result)
    if group == "problems" and fmt == "junit":
        from .junit_problems import render_problems_junit

        return render_problems_junit(result)
    if fmt == "text":
        from .text import render_text

        return render_text(result)
    if fmt == "json":
        from .json_report import render_json

        return render_json(result)
    if fmt == "sarif":
        from .sarif import render_sarif

        return render_sarif(result)
    if fmt == "junit":
        from .junit import render_junit

        return render_junit(result)
    if fmt == "html":
        from .html import render_html

        return render_html(result, screenshots, history)
    raise ValueError(f"unknown report format {fmt!r}; expected one of {', '.join(FORMATS)}")
