"""LLM assistance through the real engine and the shared Chromium, against the fake provider:
annotations on findings, the LLM's own findings, how they count, and every failure mode
giving a normal result with ``llm.error``."""

from __future__ import annotations

import json
import logging

import pytest

from audit.engine import EngineLimits, run_audit
from tests.audit.support import make_request, open_page, resolve_selector
from tests.llm.fake import Delay, ModelText, RawBody, Status
from tests.llm.pages import REVIEW_PAGE

FAST = EngineLimits(navigation_timeout=15, audit_timeout=60)


def _request(url: str, provider: str = "anthropic", **llm):
    return make_request(url, llm={"enabled": True, "provider": provider, **llm})


@pytest.fixture
def review_url(site) -> str:
    return site.route("/llm/review.html", REVIEW_PAGE)


async def test_findings_are_annotated_and_llm_findings_reported_apart(browser, site, review_url, llm_env, fake_llm):
    baseline = await run_audit(browser, make_request(review_url), FAST)
    result = await run_audit(browser, _request(review_url), FAST)

    # the axe finding carries the model's review
    [contrast] = [f for f in result.findings if f.rule_id == "color-contrast"]
    assert contrast.source == "axe"
    assert contrast.llm.verdict == "confirmed" and contrast.llm.confidence == pytest.approx(0.97)
    assert "#595959" in contrast.llm.suggested_fix

    # without includeFindings: suspected problems are needs-review items, counts unchanged
    assert [f.rule_id for f in result.findings] == [f.rule_id for f in baseline.findings]
    assert result.score == baseline.score and result.conformant == baseline.conformant
    assert result.stats == baseline.stats
    suspected = {r.rule_id: r for r in result.needs_review if r.rule_id.startswith("llm-")}
    assert set(suspected) == {"llm-alt-text-meaningful", "llm-link-purpose"}
    assert suspected["llm-alt-text-meaningful"].llm.verdict == "confirmed"
    assert suspected["llm-alt-text-meaningful"].selector == "#photo"

    summary = result.llm
    assert summary.provider == "anthropic" and summary.model == "claude-sonnet-4-6"
    assert summary.error is None
    # contrast finding + the captioned image + "click here" + the shadow-DOM "read more" as the
    # LLM's own suspicions, and the two links once more as a11y-link-text-in-context's items
    assert summary.reviewed == 6
    assert summary.tokens_used > 500

    # one call, with both screenshots (contrast text and the image), the schema and the key header
    [sent] = fake_llm.requests
    blocks = sent.body["messages"][0]["content"]
    assert sum(1 for b in blocks if b["type"] == "image") == 2
    assert '"enum":["confirmed","false_positive","needs_manual_review"]' in sent.body["system"]
    assert sent.headers.get("x-api-key") or sent.headers.get("X-Api-Key")
    prompt = "\n".join(b["text"] for b in blocks if b["type"] == "text")
    assert '"Volunteers in the park"' in prompt and '"click here"' in prompt and "annual report" in prompt


async def test_include_findings_counts_llm_findings(browser, page, site, review_url, llm_env, fake_llm):
    baseline = await run_audit(browser, make_request(review_url), FAST)
    result = await run_audit(browser, _request(review_url, includeFindings=True), FAST)

    llm_findings = [f for f in result.findings if f.source == "llm"]
    assert sorted(f.rule_id for f in llm_findings) == [
        "llm-alt-text-meaningful", "llm-link-purpose", "llm-link-purpose"]
    alt = next(f for f in llm_findings if f.rule_id == "llm-alt-text-meaningful")
    assert (alt.impact, alt.level, alt.success_criteria) == ("serious", "A", ["1.1.1"])
    assert alt.html.startswith("<img") and alt.llm.suggested_fix.startswith("<img")
    assert alt.help.startswith("https://www.w3.org/WAI/WCAG22/Understanding/")
    assert [f.id for f in result.findings] == [f"f{i}" for i in range(1, len(result.findings) + 1)]

    await open_page(page, review_url)
    for finding in llm_findings:
        element = await resolve_selector(page, finding.selector)
        assert element is not None and element["tag"] == finding.element

    assert result.stats.total_findings == baseline.stats.total_findings + 3
    assert result.stats.serious == baseline.stats.serious + 1
    assert result.stats.moderate == baseline.stats.moderate + 2
    assert result.pages[0].findings == len(result.findings)
    assert result.conformant is False
    assert result.score < baseline.score
    assert {"llm-alt-text-meaningful", "llm-link-purpose"} <= set(result.pages[0].rules_tested)
    assert not any(r.rule_id.startswith("llm-") for r in result.needs_review)


async def test_false_positive_verdicts_add_nothing(browser, review_url, llm_env, fake_llm):
    fake_llm.decide = lambda item_id, block: ("false_positive", 0.7, "Acceptable in context.", None)
    baseline = await run_audit(browser, make_request(review_url), FAST)
    result = await run_audit(browser, _request(review_url, includeFindings=True), FAST)
    assert [f.rule_id for f in result.findings] == [f.rule_id for f in baseline.findings]
    assert result.findings[0].llm.verdict == "false_positive"  # annotated, not removed
    assert result.conformant == baseline.conformant
    # both LLM rules applied and passed, so the page scores at least as well as before
    assert result.score >= baseline.score


FAILURES = [
    pytest.param("anthropic", {"ANTHROPIC_API_KEY": "sk-ant-wrong-SECRET-77"}, [],
                 "anthropic rejected the API key (HTTP 401", id="wrong-key"),
    pytest.param("openai", {"A11Y_LLM_TIMEOUT": "0.5"}, [Delay(3)] * 3,
                 "openai did not answer within 0.5 s", id="timeout"),
    pytest.param("gemini", {}, [RawBody("<html>upstream error</html>")],
                 "gemini's response body is not JSON", id="not-json"),
    pytest.param("xai", {}, [ModelText('{"answer": "looks fine"}')],
                 "does not match the schema", id="wrong-shape"),
    pytest.param("ollama", {"OLLAMA_BASE_URL": "http://127.0.0.1:9"}, [],
                 "could not reach ollama", id="outage"),
    pytest.param("openai-compatible", {"A11Y_LLM_MAX_ATTEMPTS": "2"},
                 [Status(500, "boom"), Status(500, "boom")], "HTTP 500", id="server-error"),
]


@pytest.mark.parametrize(("provider", "env", "script", "message"), FAILURES)
async def test_provider_failure_never_fails_the_audit(
    browser, review_url, llm_env, fake_llm, monkeypatch, caplog, provider, env, script, message
):
    caplog.set_level(logging.DEBUG)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    fake_llm.script.extend(script)
    baseline = await run_audit(browser, make_request(review_url), FAST)
    result = await run_audit(browser, _request(review_url, provider), FAST)
    assert result.llm.provider == provider
    assert message in result.llm.error
    assert result.llm.reviewed == 0
    assert all(f.llm is None for f in result.findings)
    assert [f.rule_id for f in result.findings] == [f.rule_id for f in baseline.findings]
    assert result.score == baseline.score
    body = json.dumps(result.model_dump(mode="json"))
    assert "SECRET" not in body and "SECRET" not in caplog.text


async def test_429_then_success_through_the_engine(browser, review_url, llm_env, fake_llm):
    fake_llm.script.append(Status(429, "Too many requests", {"Retry-After": "0"}))
    result = await run_audit(browser, _request(review_url, "openai"), FAST)
    assert result.llm.error is None and result.llm.reviewed == 6  # as in the first test
    assert len(fake_llm.requests) == 2


async def test_cost_of_a_five_finding_audit(browser, site, llm_env, fake_llm):
    """violations.html has five axe findings; html-has-lang (3.1.1) is outside the reviewed
    areas, so four items go out, in one call with two screenshots."""
    result = await run_audit(browser, _request(site.url("/audit/violations.html")), FAST)
    assert result.stats.total_findings == 5
    reviewed = {f.rule_id for f in result.findings if f.llm is not None}
    assert reviewed == {"image-alt", "label", "color-contrast", "button-name"}
    assert len(fake_llm.requests) == 1
    assert result.llm.tokens_used < 4000
