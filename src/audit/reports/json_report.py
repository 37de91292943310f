"""The result as pretty-printed JSON, exactly the body POST /audit returns."""

from __future__ import annotations

import json

from ..models import AuditResult


def render_json(result: AuditResult) -> str:
    return (
        json.dumps(result.model_dump(mode="json", by_alias=True), indent=2, ensure_ascii=False)
        + "\n"
    )
