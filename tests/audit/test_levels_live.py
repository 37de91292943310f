"""The requested WCAG version and level choose the rules: one page, four targets."""

from __future__ import annotations

import pytest

from audit.engine import EngineLimits, run_audit
from tests.audit.support import make_request

LIMITS = EngineLimits(navigation_timeout=15, audit_timeout=60)


@pytest.mark.parametrize(
    ("version", "level", "expected"),
    [
        ("2.0", "A", set()),
        ("2.1", "AA", set()),
        ("2.2", "AA", {"target-size"}),
        ("2.2", "AAA", {"target-size", "color-contrast-enhanced"}),
    ],
)
async def test_version_and_level_select_rules(browser, site, version, level, expected):
    url = site.url("/audit/levels.html")
    result = await run_audit(browser, make_request(url, version=version, level=level.lower()), LIMITS)
    assert (result.wcag_version, result.wcag_level) == (version, level)
    assert {f.rule_id for f in result.findings} == expected
    tested = set(result.pages[0].rules_tested)
    assert ("color-contrast" in tested) is (level != "A")  # an AA rule
    assert ("target-size" in tested) is (version == "2.2")
    assert ("color-contrast-enhanced" in tested) is (level == "AAA")
    for finding in result.findings:
        if finding.rule_id == "target-size":
            assert (finding.level, finding.success_criteria) == ("AA", ["2.5.8"])
            assert finding.selector in ("#tiny-1", "#tiny-2")
        else:
            assert (finding.level, finding.success_criteria) == ("AAA", ["1.4.6"])
            assert finding.selector == "#aa-only"
    assert result.conformant is (not expected)
