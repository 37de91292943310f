"""Where the fix of a problem most likely lives, in plain words: one style for a visual
rule, else the shared template part (its landmarks and its nearest structure) and how many
of the run's pages share it. A guess from what the run saw, stated as one (docs/problems.md,
Limits)."""

from __future__ import annotations

import re

from .signature import (
    UNDECIDED,
    VISUAL_RULES,
    component_classes,
    opening_tag_attributes,
    split_component,
)


def element_compound(element: str, html: str) -> str:
    """``tag.class`` of an element from its opening tag (component classes only)."""
    classes = component_classes(opening_tag_attributes(html).get("class", "").split())
    return element + "".join(f".{c}" for c in classes)


def _scope(pages: int, total_pages: int, instances: int) -> str:
    if pages > 1 and pages >= total_pages:
        return f"shared by all {pages} pages"
    if pages > 1:
        return f"shared by {pages} of {total_pages} pages"
    return f"one page, {instances} instances" if instances > 1 else "one page"


def fix_location(
    rule_id: str,
    component: str,
    element: str,
    html: str,
    *,
    pages: int,
    total_pages: int,
    instances: int,
) -> str:
    """The guess: ``one style: span.pre colour (56 pages)``, ``shared by all 200 pages:
    header template (ul.menu > li > a)``, ``one page``… (for a visual rule's undecided
    items, the cause is one thing to look at: ``one cause to check by hand, …``)"""
    if component.startswith(UNDECIDED):  # a visual rule's undecided items: one question
        return f"one cause to check by hand, {_scope(pages, total_pages, instances)}"
    landmarks, chain = split_component(component)
    visual = VISUAL_RULES.get(rule_id)
    if visual is not None:
        where = "one page" if pages == 1 else f"{pages} pages"
        # Rules whose fix may differ by region (a link's spacing in the navigation and in the
        # text) keep the landmarks in the signature: say them, or two problems read the same.
        inside = f", in {landmarks}" if landmarks else ""
        return f"one style: {element_compound(element, html) or element or 'the element'} {visual[1]}{inside} ({where})"
    nearest = "".join(re.split(r"( > | )", chain)[-3:]) if chain else element
    scope = _scope(pages, total_pages, instances)
    if landmarks:
        template = " template" if pages > 1 else ""
        return f"{scope}: {landmarks}{template} ({nearest})"
    return f"{scope}: {nearest}"
