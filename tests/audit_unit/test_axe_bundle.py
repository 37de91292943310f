"""Rule impacts come from the pinned bundle's own rule table, not from a previous run."""

from __future__ import annotations

import pytest

from audit.axe_bundle import AxeBundleMissing, declared_impacts, load_bundle, rule_impacts


def test_impacts_are_read_from_the_rule_table_top_level_only():
    source = (
        'x={checks:[{id:"not-a-rule",impact:"minor"}],'
        'rules:[{id:"a-rule",impact:"serious",selector:"a[href*=\\"{,}\\"], b",tags:["wcag2a"],'
        'any:[{options:{attribute:"alt"},id:"nested-check"}],none:[]},'
        '{id:"no-impact",selector:"p",all:[]},'
        '{id:"late-impact",reviewOnFail:!0,impact:"critical",matches:"m"}],'
        'checks:[{id:"after",impact:"moderate"}]}'
    )
    assert declared_impacts(source) == {"a-rule": "serious", "late-impact": "critical"}


def test_a_source_without_a_rule_table_is_refused():
    with pytest.raises(AxeBundleMissing):
        declared_impacts("var axe = {};")


def test_the_pinned_bundle_declares_an_impact_for_its_rules():
    impacts = rule_impacts()
    assert impacts["image-alt"] == "critical"
    assert impacts["color-contrast"] == "serious"
    assert impacts["html-has-lang"] == "serious"
    assert impacts["region"] == "moderate"
    assert set(impacts.values()) == {"critical", "serious", "moderate", "minor"}
    assert len(impacts) > 90
    assert impacts == dict(load_bundle().rule_impacts)
    impacts["image-alt"] = "minor"  # a copy: the bundle's table cannot be changed from here
    assert rule_impacts()["image-alt"] == "critical"
