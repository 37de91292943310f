"""One problem as one issue of an issue tracker: a title, a Markdown body listing where it
is (its instances, their pages and screenshots' links when there are some) and labels;
and the same as CSV rows, one per problem, for trackers that import CSV.

Pure: the links to screenshots are given by the caller (the service knows its URLs).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

from .schema import Problem, ProblemInstance

#: The CSV's columns, in order.
CSV_COLUMNS = (
    "problem",
    "title",
    "body",
    "labels",
    "impact",
    "certainty",
    "rule",
    "wcag",
    "instances",
    "pages",
    "priority",
    "fixLocation",
    "selectorPattern",
    "sampleUrl",
)
#: A screenshot's URL for an instance, or None when it has none.
ShotLink = Callable[[ProblemInstance], str | None]


class IssueDraft(BaseModel):
    """What to file: one issue per problem."""

    model_config = ConfigDict(
        extra="forbid", alias_generator=to_camel, validate_by_name=True, serialize_by_alias=True
    )

    title: str
    body: str
    labels: list[str]


def _where(problem: Problem) -> str:
    pages = "1 page" if problem.pages == 1 else f"{problem.pages} pages"
    count = "1 instance" if problem.instances == 1 else f"{problem.instances} instances"
    return f"{count} on {pages}"


def issue_title(problem: Problem) -> str:
    """``[serious] Links must have discernible text: a.nav-link (14 instances on 4 pages)``."""
    target = problem.selector_pattern.rsplit(" ", 1)[-1] or problem.rule_id
    review = "Needs review: " if problem.certainty == "needs_review" else ""
    return f"[{problem.impact}] {review}{problem.title}: {target} ({_where(problem)})"


def issue_body(problem: Problem, shot_link: ShotLink | None = None) -> str:
    """The Markdown body: what, where the fix lives, the WCAG criteria, then the instances."""
    criteria = ", ".join(problem.success_criteria) or "none listed"
    lines = [
        f"**{problem.title}** (`{problem.rule_id}`, impact {problem.impact}, WCAG {problem.level}: {criteria})",
        "",
        f"- Where the fix most likely lives: {problem.fix_location}",
        f"- Component: `{problem.component}`",
        f"- Selector matching every instance: `{problem.selector_pattern}`",
        f"- Found: {_where(problem)}; priority {problem.priority}"
        + ("; blocks a task" if problem.blocks_task else ""),
    ]
    if problem.certainty == "needs_review":
        lines.append("- The checker could not decide: review each instance by hand.")
    if problem.help:
        lines.append(f"- How to fix: {problem.help}")
    lines += ["", f"Instances (showing {len(problem.examples)} of {problem.instances}):", ""]
    for instance in problem.examples or [problem.representative]:
        shot = shot_link(instance) if shot_link else None
        line = f"- {instance.page_url} `{instance.selector}`: `{instance.html}`"
        lines.append(line + (f" ([screenshot]({shot}))" if shot else ""))
    if problem.pages > len(problem.page_sample):
        lines += [
            "",
            f"Pages (showing {len(problem.page_sample)} of {problem.pages}): "
            + ", ".join(problem.page_sample),
        ]
    return "\n".join(lines) + "\n"


def issue_labels(problem: Problem) -> list[str]:
    labels = ["accessibility", f"impact:{problem.impact}", f"rule:{problem.rule_id}"]
    labels += [f"wcag:{sc}" for sc in problem.success_criteria]
    if problem.certainty == "needs_review":
        labels.append("needs-review")
    return labels


def issue_of(problem: Problem, shot_link: ShotLink | None = None) -> IssueDraft:
    return IssueDraft(
        title=issue_title(problem),
        body=issue_body(problem, shot_link),
        labels=issue_labels(problem),
    )


def _cell(value: object) -> str:
    """A cell a spreadsheet will not read as a formula (page text may start with ``=``)."""
    text = str(value)
    return f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def problems_csv(problems: Iterable[Problem], shot_link: ShotLink | None = None) -> str:
    """RFC 4180 CSV (CRLF line ends, fields quoted when needed), a header row first."""
    out = io.StringIO()
    safe = _cell
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for problem in problems:
        issue = issue_of(problem, shot_link)
        writer.writerow(
            [
                safe(cell)
                for cell in (
                    problem.id,
                    issue.title,
                    issue.body,
                    " ".join(issue.labels),
                    problem.impact,
                    problem.certainty,
                    problem.rule_id,
                    " ".join(problem.success_criteria),
                    problem.instances,
                    problem.pages,
                    problem.priority,
                    problem.fix_location,
                    problem.selector_pattern,
                    problem.representative.page_url,
                )
            ]
        )
    return out.getvalue()
