"""Renderers of an ``AuditResult`` for people and CI systems, one module per format."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..models import AuditResult
from ..screenshots import ScreenshotIndex

FORMATS: tuple[str, ...] = ("text", "json", "sarif", "junit", "html")


def render(
    result: AuditResult,
    fmt: str,
    *,
    screenshots: ScreenshotIndex | None = None,
    history: Sequence[Mapping[str, Any]] | None = None,
) -> str:
    """The result rendered as ``text``, ``json``, ``sarif``, ``junit`` or ``html``; only the
    HTML report shows ``screenshots`` and the site's ``history``."""
    fmt = fmt.lower()
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
