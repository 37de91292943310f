"""The judge: batching, the call cap, the per-audit cache, concurrency, retries, and every
failure turning into ``llm.error`` (never an exception, never a key)."""

from __future__ import annotations

import json
import logging
import math

import pytest
import trio

from audit.llm.judge import JudgeSettings, Redactor, review
from tests.llm.conftest import KEYS, llm_environ
from tests.llm.fake import Delay, ModelText, RawBody, Status
from tests.llm.support import evidence, item, options

FAST = JudgeSettings(backoff_base=0.01, call_timeout=5.0)


def _items_in(request) -> int:
    return sum(text.count("### Item q") for text in [json.dumps(request.body)])


def _images_in(request) -> int:
    return json.dumps(request.body).count('"type": "image"')


async def test_batches_respect_size_and_image_limits(fake_llm):
    env = llm_environ(fake_llm.url)
    items = [item(n, shot=n < 6) for n in range(14)]
    outcome = await review(evidence(*items), options(), environ=env, settings=FAST)
    assert outcome.errors == []
    per_call = [(_items_in(r), _images_in(r)) for r in fake_llm.requests]
    # 6 screenshots at most 4 per call: [4 shots], [2 shots + 4], [4] -> 3 calls, sent
    # concurrently (so in any order)
    assert sorted(per_call) == [(4, 0), (4, 4), (6, 2)]
    assert len(outcome.reviews) == 14 and outcome.calls == 3


async def test_cap_on_calls_leaves_the_rest_unreviewed(fake_llm):
    env = llm_environ(fake_llm.url)
    items = [item(n) for n in range(20)]
    settings = JudgeSettings(batch_size=6, max_calls=2)
    outcome = await review(evidence(*items), options(), environ=env, settings=settings)
    assert len(fake_llm.requests) == 2
    assert len(outcome.reviews) == 12 and outcome.skipped == 8
    assert outcome.error_text() is None  # a cap is a limit, not a failure
    # findings come before needs-review items and suspected problems
    mixed = [item(1, kind="candidate"), item(2, kind="review"), item(3)]
    fake_llm.requests.clear()
    outcome = await review(evidence(*mixed), options(), environ=env,
                           settings=JudgeSettings(batch_size=1, max_calls=1))
    assert list(outcome.reviews) == [mixed[2].key]


async def test_identical_questions_are_asked_once(fake_llm):
    env = llm_environ(fake_llm.url)
    nav = '<a href="/more">read more</a>'
    same = [item(1, markup=nav, page=f"http://site.test/p{n}") for n in range(3)]
    for i in same:  # the same element on three crawled pages
        i.selector = "#nav-more"
        i.key = (i.kind, i.page_url, i.rule_id, i.selector)
    other = item(2)
    outcome = await review([evidence(same[0], page=same[0].page_url), evidence(*same[1:], other)],
                           options(), environ=env, settings=FAST)
    assert len(fake_llm.requests) == 1
    assert _items_in(fake_llm.requests[0]) == 2
    assert outcome.questions == 2 and len(outcome.reviews) == 4


async def test_calls_run_concurrently_within_the_limit(fake_llm):
    env = llm_environ(fake_llm.url)
    fake_llm.default_step = Delay(0.3)
    settings = JudgeSettings(batch_size=1, max_calls=6, concurrency=2)
    started = trio.current_time()
    outcome = await review(evidence(*[item(n) for n in range(6)]), options(), environ=env, settings=settings)
    elapsed = trio.current_time() - started
    assert outcome.errors == [] and len(outcome.reviews) == 6
    assert fake_llm.max_concurrent == 2  # two at once, never more
    # Three rounds of two at the least; no upper bound: a loaded machine only adds time, and
    # the peak above already shows the calls overlapped.
    assert elapsed > 0.85


async def test_429_then_success_waits_for_retry_after(fake_llm):
    env = llm_environ(fake_llm.url)
    fake_llm.script.append(Status(429, "rate limited", {"Retry-After": "1"}))
    started = trio.current_time()
    outcome = await review(evidence(item(1)), options("openai"), environ=env, settings=FAST)
    assert trio.current_time() - started >= 0.95
    assert len(fake_llm.requests) == 2 and outcome.calls == 2
    assert outcome.errors == [] and len(outcome.reviews) == 1


@pytest.mark.parametrize("status", [500, 502, 503, 529])
async def test_5xx_then_success_is_retried(fake_llm, status):
    env = llm_environ(fake_llm.url)
    fake_llm.script.extend([Status(status, "overloaded"), Status(status, "overloaded")])
    outcome = await review(evidence(item(1)), options("anthropic"), environ=env, settings=FAST)
    assert len(fake_llm.requests) == 3
    assert outcome.errors == [] and len(outcome.reviews) == 1


async def test_persistent_outage_gives_up_after_the_attempts(fake_llm):
    env = llm_environ(fake_llm.url)
    fake_llm.default_step = Status(503, "Service Unavailable")
    outcome = await review(evidence(item(1)), options("gemini"), environ=env, settings=FAST)
    assert len(fake_llm.requests) == 3
    assert outcome.reviews == {}
    assert "HTTP 503" in outcome.error_text() and "after 3 attempts" in outcome.error_text()


async def test_long_retry_after_is_not_waited_for(fake_llm):
    env = llm_environ(fake_llm.url)
    fake_llm.script.append(Status(429, "slow down", {"Retry-After": "120"}))
    with trio.fail_after(30):
        outcome = await review(evidence(item(1)), options(), environ=env, settings=FAST)
    assert len(fake_llm.requests) == 1
    assert "retry after 120 s" in outcome.error_text()


async def test_wrong_key_is_not_retried_and_not_echoed(fake_llm, caplog):
    caplog.set_level(logging.DEBUG)
    env = {**llm_environ(fake_llm.url), "OPENAI_API_KEY": "sk-wrong-SECRET-key-9999"}
    outcome = await review(evidence(item(1)), options("openai"), environ=env, settings=FAST)
    assert len(fake_llm.requests) == 1
    error = outcome.error_text()
    assert "rejected the API key (HTTP 401" in error
    # the fake echoed "Bearer sk-wrong-SECRET-key-9999" in its error message
    assert "SECRET" not in error and "sk-wrong" not in error
    assert "SECRET" not in caplog.text


async def test_timeout(fake_llm):
    env = llm_environ(fake_llm.url)
    fake_llm.default_step = Delay(3)
    settings = JudgeSettings(call_timeout=0.5, backoff_base=0.01)
    with trio.fail_after(30):
        outcome = await review(evidence(item(1)), options(), environ=env, settings=settings)
    assert outcome.error_text() == "anthropic did not answer within 0.5 s"
    assert len(fake_llm.requests) == 1  # a timeout is not retried: the wait is already long


async def test_unreachable_provider(fake_llm):
    env = {**llm_environ(fake_llm.url), "ANTHROPIC_BASE_URL": "http://127.0.0.1:9"}
    outcome = await review(evidence(item(1)), options(), environ=env, settings=FAST)
    assert outcome.error_text().startswith("could not reach anthropic: ConnectError")


@pytest.mark.parametrize(
    ("step", "message"),
    [
        (RawBody("<html><body>502 Bad Gateway</body></html>"), "response body is not JSON"),
        (ModelText("Sure! The first item fails because the contrast is low."), "answer is not JSON"),
        (ModelText('{"verdicts": "all good"}'), "does not match the schema (no 'results' array)"),
        (ModelText('{"results": [{"id": "q1", "verdict": "maybe", "confidence": 2}]}'),
         "does not match the schema (1 malformed result(s))"),
        (ModelText(""), "answer is not JSON"),
    ],
)
async def test_unusable_replies_become_errors(fake_llm, step, message):
    env = llm_environ(fake_llm.url)
    fake_llm.script.append(step)
    outcome = await review(evidence(item(1)), options("xai"), environ=env, settings=FAST)
    assert outcome.reviews == {}
    assert message in outcome.error_text()
    assert outcome.summary().reviewed == 0


async def test_partial_and_fenced_answers(fake_llm):
    env = llm_environ(fake_llm.url)
    answer = {"results": [
        {"id": "q1", "verdict": "false_positive", "confidence": 0.8, "reasoning": "Fine.", "fix": None},
        {"id": "q2", "verdict": "bogus", "confidence": 0.8, "reasoning": "x", "fix": None},
        {"id": "q9", "verdict": "confirmed", "confidence": 0.8, "reasoning": "Unknown id.", "fix": None},
    ]}
    fake_llm.script.append(ModelText("```json\n" + json.dumps(answer) + "\n```"))
    ev = evidence(item(1), item(2), item(3))
    outcome = await review(ev, options("ollama"), environ=env, settings=FAST)
    assert list(outcome.reviews) == [ev.items[0].key]
    assert outcome.reviews[ev.items[0].key].verdict == "false_positive"
    assert "left 2 of 3 item(s) in a call unanswered" in outcome.error_text()


async def test_deadline_stops_outstanding_calls(fake_llm):
    env = llm_environ(fake_llm.url)
    fake_llm.default_step = Delay(3)
    with trio.fail_after(30):
        outcome = await review(evidence(item(1)), options(), environ=env, settings=FAST,
                               deadline=trio.current_time() + 0.3)
    assert "stopped at the audit deadline" in outcome.error_text()


async def test_not_configured_is_an_error_not_an_exception():
    outcome = await review(evidence(item(1)), options("openai"), environ={})
    assert outcome.error_text() == "LLM not configured: OPENAI_API_KEY is not set"


async def test_no_key_in_any_error_or_log_line(fake_llm, caplog):
    """Every failure mode at DEBUG: neither the outcome nor any log record holds a key."""
    caplog.set_level(logging.DEBUG)
    env = llm_environ(fake_llm.url)
    texts: list[str] = []
    for provider in ("anthropic", "openai", "gemini", "xai", "openai-compatible", "ollama"):
        for step in (None, Status(401, f"bad key {KEYS['OPENAI_API_KEY']} {KEYS['ANTHROPIC_API_KEY']}"),
                     Status(429, "rate", {"Retry-After": "0"}), RawBody("oops"), ModelText("nope")):
            if step is not None:
                fake_llm.script.append(step)
            outcome = await review(evidence(item(1, shot=True)), options(provider), environ=env,
                                   settings=JudgeSettings(max_attempts=2, backoff_base=0.01))
            texts.append(json.dumps(outcome.summary().model_dump(mode="json")))
            texts.extend(outcome.errors)
    wrong = {**env, "GEMINI_API_KEY": "AIzaWRONG-SECRET-gemini-1234567890"}
    outcome = await review(evidence(item(1)), options("gemini"), environ=wrong, settings=FAST)
    texts.extend(outcome.errors)
    logged = caplog.text + "\n".join(str(r.args) for r in caplog.records)
    for text in [*texts, logged]:
        assert "SECRET" not in text, text[:300]
    assert any("401" in t for t in texts)


def test_redactor():
    redact = Redactor(["my-own-secret-value"])
    assert redact("key my-own-secret-value!") == "key [redacted]!"
    assert redact("Incorrect API key provided: sk-proj-abc123***xyz9") == "Incorrect API key provided: [redacted]"
    assert redact("Authorization: Bearer abc.def") == "Authorization: [redacted]"
    assert redact("AIzaSyA1234567890abcdefghij bad") == "[redacted] bad"


def test_token_estimate_is_realistic():
    """Sanity check of the fake's usage numbers used for cost reports."""
    from tests.llm.conftest import png
    from tests.llm.fake import image_tokens

    assert image_tokens(png(300, 150)) == math.ceil(300 * 150 / 750)
