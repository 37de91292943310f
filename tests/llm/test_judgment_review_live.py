"""The LLM judge answers the judgment checks' questions (llm.judgment) through the real engine,
against the fake provider: each question carries its ACT rule and the context it needs, the
verdict lands on the needs-review item, and only with includeFindings does a confirmed failure
become a finding that counts."""

from __future__ import annotations

from audit.engine import EngineLimits, run_audit
from tests.audit.support import make_request

FAST = EngineLimits(navigation_timeout=15, audit_timeout=60)
PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Elm Street bakery: opening hours</title></head><body><main>
<h1 id="hours">Weather</h1>
<p>We bake from Monday to Friday, 7 to 18, and on Saturday until noon.</p>
<p>Prices are in <a id="menu" href="/menu">our menu</a>.</p>
</main></body></html>"""


def _decide(item_id: str, block: str):
    """A reviewer who finds only the heading "Weather" wrong for opening hours."""
    if "Rule a11y-judge-heading" in block:
        return ("confirmed", 0.9, "The heading says Weather but the section gives opening hours.",
                '<h1 id="hours">Opening hours</h1>')
    return ("false_positive", 0.8, "Descriptive in its context.", None)


def _request(url: str, **llm):
    return make_request(url, llm={"enabled": True, "provider": "anthropic", "judgment": True, **llm})


async def test_judge_decides_the_questions(browser, site, llm_env, fake_llm):
    fake_llm.decide = _decide
    url = site.route("/llm/judgment.html", PAGE)
    baseline = await run_audit(browser, make_request(url), FAST)
    asked = await run_audit(browser, _request(url), FAST)

    questions = {r.rule_id: r for r in asked.needs_review if r.rule_id.startswith("a11y-judge-")}
    assert set(questions) == {"a11y-judge-page-title", "a11y-judge-heading", "a11y-judge-link-in-context"}
    heading = questions["a11y-judge-heading"]
    assert heading.act_rules == ["b49b2e"] and heading.llm.verdict == "confirmed"
    assert heading.llm.suggested_fix == '<h1 id="hours">Opening hours</h1>'
    assert questions["a11y-judge-link-in-context"].llm.verdict == "false_positive"
    assert questions["a11y-judge-page-title"].llm.verdict == "false_positive"
    # without includeFindings the answers are annotations: counts as without the judge
    assert [f.rule_id for f in asked.findings] == [f.rule_id for f in baseline.findings]
    assert (asked.score, asked.conformant) == (baseline.score, baseline.conformant)
    assert asked.llm.error is None and asked.llm.reviewed == 3

    [sent] = fake_llm.requests
    assert "Items marked \"question\"" in sent.body["system"]
    prompt = "\n".join(b["text"] for b in sent.body["messages"][0]["content"] if b["type"] == "text")
    assert "Question (W3C ACT rule b49b2e): Does this heading describe" in prompt
    assert "Saturday until noon" in prompt  # the content after the heading
    assert 'Enclosing p: "Prices are in our menu."' in prompt  # the link's sentence

    fake_llm.requests.clear()
    counted = await run_audit(browser, _request(url, includeFindings=True), FAST)
    [finding] = [f for f in counted.findings if f.rule_id == "a11y-judge-heading"]
    assert (finding.source, finding.act_rules, finding.level) == ("llm", ["b49b2e"], "AA")
    assert finding.failure_summary.startswith("The heading says Weather")
    assert not any(r.rule_id == "a11y-judge-heading" for r in counted.needs_review)
    assert counted.conformant is False and counted.score < baseline.score
    assert {"a11y-judge-heading", "a11y-judge-page-title"} <= set(counted.pages[0].rules_tested)
