"""The result models of problems (docs/problems.md): what ``AuditResult.problems`` holds.

Kept apart from :mod:`audit.models` (which imports this module) so the problem package owns
its shape; the configuration is the result models' own: built from Python or JSON names,
always dumped as camelCase.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

Certainty = Literal["violation", "needs_review"]


class _ProblemModel(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        alias_generator=to_camel,
        validate_by_alias=True,
        validate_by_name=True,
        serialize_by_alias=True,
    )


class ProblemInstance(_ProblemModel):
    """One element the problem was found on: enough to find it and its screenshot."""

    item_id: str = Field(
        description="The finding's (f…) or needs-review item's (r…) id in the result."
    )
    page_url: str
    selector: str
    html: str = Field(description="Opening tag of the element, at most 300 characters.")
    fingerprint: str = Field("", description="The item's fingerprint (README, Fingerprints).")
    screenshot: str | None = Field(
        None,
        exclude_if=lambda value: value is None,
        description="Link to the element's screenshot, where the answer can link one and it has one.",
    )


class Problem(_ProblemModel):
    """One defect in one component, wherever it repeats (docs/problems.md)."""

    id: str = Field(
        description="Stable across runs: the same rule on the same component keeps it (docs/problems.md)."
    )
    rule_id: str
    title: str = Field(description="The rule's one-sentence help.")
    impact: Literal["critical", "serious", "moderate", "minor"] = Field(
        description="The worst impact among its instances."
    )
    level: Literal["A", "AA", "AAA"]
    success_criteria: list[str] = Field(default_factory=list)
    help: str = Field("", description="URL of the rule's help page.")
    certainty: Certainty = Field(
        description="violation when any instance is a finding; needs_review when every one is undecided."
    )
    component: str = Field(
        description="The component, as its structure or style reads (docs/problems.md)."
    )
    selector_pattern: str = Field(
        description="A CSS selector (frame hops joined by ' >>> ') matching every instance."
    )
    fix_location: str = Field(description="A plain-language guess where the fix lives.")
    instances: int = Field(ge=1, description="Findings and needs-review items in the problem.")
    pages: int = Field(ge=1, description="Pages it was found on.")
    page_sample: list[str] = Field(
        default_factory=list, description="Up to 5 of those pages, first found first."
    )
    priority: float = Field(
        ge=0, description="The documented priority score (docs/problems.md, Priority)."
    )
    blocks_task: bool = Field(description="Whether the rule keeps someone from completing a task.")
    representative: ProblemInstance
    examples: list[ProblemInstance] = Field(
        default_factory=list,
        description="Up to 10 instances, on as many different pages as there are.",
    )
