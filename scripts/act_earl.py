"""An EARL report of an ACT test-case run, as JSON-LD in the shape the W3C's implementation
pages are built from (act-rules/act-tools reads it and grades every ACT rule).

The report is one JSON-LD document with an inline ``@context`` and a ``@graph`` of:

* the assertor: ``{"@type": "Assertor", "name": ..., "release": {"revision": ...}}``, which
  act-tools shows as the implementation's name and version;
* one ``TestSubject`` per test case, whose ``source`` is the case's W3C URL (act-tools finds
  the ACT rule and the test case in it: ``.../testcases/<rule id>/<case id>.html``), with its
  ``assertions`` (the reverse of ``subject``);
* per case, one ``Assertion`` per procedure (an engine rule id, the ``test``'s ``title``) with
  ``result.outcome`` ``earl:passed``, ``earl:failed``, ``earl:cantTell``, ``earl:inapplicable``
  (or ``earl:untested`` when the case could not be run), and ``test.isPartOf`` the WCAG
  success criteria the procedure declares, as ``WCAG2:<id>`` (the criterion's fragment id in
  the WCAG 2 recommendation), which is how act-tools compares them with the ACT rule's.

Nothing here runs a browser: :func:`earl_report` takes plain :class:`Assertion` records, so
the format is testable offline (``tests/audit_unit/test_act_grading.py``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: WCAG 2.2 success criteria (and 4.1.1, obsolete but still defined): number -> fragment id
#: of the criterion in the recommendation (https://www.w3.org/TR/WCAG22/#<id>).
WCAG_CRITERIA: dict[str, str] = {
    "1.1.1": "non-text-content",
    "1.2.1": "audio-only-and-video-only-prerecorded",
    "1.2.2": "captions-prerecorded",
    "1.2.3": "audio-description-or-media-alternative-prerecorded",
    "1.2.4": "captions-live",
    "1.2.5": "audio-description-prerecorded",
    "1.2.6": "sign-language-prerecorded",
    "1.2.7": "extended-audio-description-prerecorded",
    "1.2.8": "media-alternative-prerecorded",
    "1.2.9": "audio-only-live",
    "1.3.1": "info-and-relationships",
    "1.3.2": "meaningful-sequence",
    "1.3.3": "sensory-characteristics",
    "1.3.4": "orientation",
    "1.3.5": "identify-input-purpose",
    "1.3.6": "identify-purpose",
    "1.4.1": "use-of-color",
    "1.4.2": "audio-control",
    "1.4.3": "contrast-minimum",
    "1.4.4": "resize-text",
    "1.4.5": "images-of-text",
    "1.4.6": "contrast-enhanced",
    "1.4.7": "low-or-no-background-audio",
    "1.4.8": "visual-presentation",
    "1.4.9": "images-of-text-no-exception",
    "1.4.10": "reflow",
    "1.4.11": "non-text-contrast",
    "1.4.12": "text-spacing",
    "1.4.13": "content-on-hover-or-focus",
    "2.1.1": "keyboard",
    "2.1.2": "no-keyboard-trap",
    "2.1.3": "keyboard-no-exception",
    "2.1.4": "character-key-shortcuts",
    "2.2.1": "timing-adjustable",
    "2.2.2": "pause-stop-hide",
    "2.2.3": "no-timing",
    "2.2.4": "interruptions",
    "2.2.5": "re-authenticating",
    "2.2.6": "timeouts",
    "2.3.1": "three-flashes-or-below-threshold",
    "2.3.2": "three-flashes",
    "2.3.3": "animation-from-interactions",
    "2.4.1": "bypass-blocks",
    "2.4.2": "page-titled",
    "2.4.3": "focus-order",
    "2.4.4": "link-purpose-in-context",
    "2.4.5": "multiple-ways",
    "2.4.6": "headings-and-labels",
    "2.4.7": "focus-visible",
    "2.4.8": "location",
    "2.4.9": "link-purpose-link-only",
    "2.4.10": "section-headings",
    "2.4.11": "focus-not-obscured-minimum",
    "2.4.12": "focus-not-obscured-enhanced",
    "2.4.13": "focus-appearance",
    "2.5.1": "pointer-gestures",
    "2.5.2": "pointer-cancellation",
    "2.5.3": "label-in-name",
    "2.5.4": "motion-actuation",
    "2.5.5": "target-size-enhanced",
    "2.5.6": "concurrent-input-mechanisms",
    "2.5.7": "dragging-movements",
    "2.5.8": "target-size-minimum",
    "3.1.1": "language-of-page",
    "3.1.2": "language-of-parts",
    "3.1.3": "unusual-words",
    "3.1.4": "abbreviations",
    "3.1.5": "reading-level",
    "3.1.6": "pronunciation",
    "3.2.1": "on-focus",
    "3.2.2": "on-input",
    "3.2.3": "consistent-navigation",
    "3.2.4": "consistent-identification",
    "3.2.5": "change-on-request",
    "3.2.6": "consistent-help",
    "3.3.1": "error-identification",
    "3.3.2": "labels-or-instructions",
    "3.3.3": "error-suggestion",
    "3.3.4": "error-prevention-legal-financial-data",
    "3.3.5": "help",
    "3.3.6": "error-prevention-all",
    "3.3.7": "redundant-entry",
    "3.3.8": "accessible-authentication-minimum",
    "3.3.9": "accessible-authentication-enhanced",
    "4.1.1": "parsing",
    "4.1.2": "name-role-value",
    "4.1.3": "status-messages",
}

#: The outcomes an assertion can have (EARL's, without the ``earl:`` prefix).
OUTCOMES = ("passed", "failed", "cantTell", "inapplicable", "untested")

EARL = "http://www.w3.org/ns/earl#"
#: The prefix of a criterion's id: what act-tools' own context calls ``WCAG2``.
WCAG2 = "https://www.w3.org/TR/WCAG2/#"

#: Every term the report uses, mapped to the EARL, Dublin Core, DOAP and schema.org terms
#: act-tools frames the report with (assertions, their subject's source, the test's title and
#: isPartOf, the assertor's name and release).
CONTEXT: dict[str, Any] = {
    "@vocab": EARL,
    "earl": EARL,
    "WCAG2": WCAG2,
    "dct": "http://purl.org/dc/terms/",
    "doap": "http://usefulinc.com/ns/doap#",
    "sch": "https://schema.org/",
    "WebPage": "sch:WebPage",
    "Version": "doap:Version",
    "source": "dct:source",
    "title": "dct:title",
    "name": "doap:name",
    "description": "doap:description",
    "release": "doap:release",
    "revision": "doap:revision",
    "created": "doap:created",
    "isPartOf": {"@id": "dct:isPartOf", "@type": "@id"},
    "assertions": {"@reverse": "earl:subject"},
    "assertedBy": {"@type": "@id"},
    "outcome": {"@type": "@id"},
    "mode": {"@type": "@id"},
}

ASSERTOR_ID = "_:assertor"


@dataclass(frozen=True)
class Assertion:
    """What one procedure (an engine rule) said about one test case."""

    url: str  # the test case's W3C URL
    procedure: str
    outcome: str  # one of OUTCOMES
    criteria: tuple[str, ...] = ()  # WCAG success criteria, dotted numbers ("1.1.1")


def criterion_id(number: str) -> str | None:
    """``"1.1.1"`` -> ``"WCAG2:non-text-content"``; None for a number WCAG 2 does not define."""
    slug = WCAG_CRITERIA.get(number)
    return f"WCAG2:{slug}" if slug else None


def _assertion_node(assertion: Assertion) -> dict[str, Any]:
    if assertion.outcome not in OUTCOMES:
        raise ValueError(f"unknown outcome {assertion.outcome!r} (expected one of {OUTCOMES})")
    parts = [part for part in map(criterion_id, assertion.criteria) if part]
    return {
        "@type": "Assertion",
        "assertedBy": ASSERTOR_ID,
        "mode": "earl:automatic",
        "test": {"@type": "TestCase", "title": assertion.procedure, "isPartOf": list(dict.fromkeys(parts))},
        "result": {"@type": "TestResult", "outcome": f"earl:{assertion.outcome}"},
    }


def earl_report(
    assertions: Iterable[Assertion], name: str, version: str, description: str = "", created: str = ""
) -> dict[str, Any]:
    """The report: the assertor, then one test subject per case URL (in first-seen order) with
    its assertions (one per procedure, in the order given; a repeated (URL, procedure) pair
    is an error, since act-tools would count both outcomes)."""
    release: dict[str, Any] = {"@type": "Version", "revision": version}
    if created:
        release["created"] = created
    assertor: dict[str, Any] = {"@id": ASSERTOR_ID, "@type": ["Assertor", "Software"], "name": name, "release": release}
    if description:
        assertor["description"] = description
    subjects: dict[str, list[dict[str, Any]]] = {}
    seen: set[tuple[str, str]] = set()
    for assertion in assertions:
        key = (assertion.url, assertion.procedure)
        if key in seen:
            raise ValueError(f"two assertions of {assertion.procedure} on {assertion.url}")
        seen.add(key)
        subjects.setdefault(assertion.url, []).append(_assertion_node(assertion))
    graph: list[dict[str, Any]] = [assertor]
    graph += [
        {"@type": ["TestSubject", "WebPage"], "source": url, "assertions": nodes} for url, nodes in subjects.items()
    ]
    return {"@context": CONTEXT, "@graph": graph}


def write_earl(path: Path, assertions: Iterable[Assertion], name: str, version: str, **kwargs: str) -> dict[str, Any]:
    """Write :func:`earl_report` to ``path`` (UTF-8 JSON) and return it."""
    report = earl_report(assertions, name, version, **kwargs)
    path.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return report
