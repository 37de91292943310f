"""Ask the model about the evidence, cheaply and without ever failing the audit.

Cost control: identical questions within an audit are asked once (:func:`question_key`);
several items share one call (``batch_size``, at most ``max_images_per_call`` images); at most
``max_calls`` calls per audit, findings first, then needs-review items, then the suspected
problems axe passed, then the questions of the judgment checks; calls run concurrently under a :class:`trio.CapacityLimiter`.

Robustness: each call has a timeout; 429 and 5xx answers and connection failures are retried
with exponential backoff (a ``Retry-After`` header is honoured when it is short enough); a
wrong key, an outage, a timeout or a reply that is not JSON of the right shape becomes a
message in :attr:`LlmOutcome.errors`, never an exception. Every message passes through a
redactor that removes API keys, so not even a provider that echoes the key can leak it.
"""

from __future__ import annotations

import datetime
import email.utils
import logging
import os
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import trio

from ..models import FindingReview, LlmOptions, LlmSummary
from .config import LlmNotConfigured, ProviderConfig, resolve, secrets
from .evidence import ElementEvidence, Evidence, ItemKey
from .prompt import ReplyInvalid, build_prompt, parse_reply, question_key
from .providers import Provider, Reply, ReplyError, make_provider
from .providers.base import Prompt

if TYPE_CHECKING:  # imported where a call is made: an audit without LLM review never needs it
    import httpx

log = logging.getLogger(__name__)

_KIND_ORDER = {"finding": 0, "review": 1, "candidate": 2, "judgment": 3}


@dataclass(frozen=True)
class JudgeSettings:
    """Limits of one audit's LLM review; ``from_env`` reads the ``A11Y_LLM_*`` overrides."""

    batch_size: int = 6
    max_images_per_call: int = 4
    max_calls: int = 8
    concurrency: int = 3
    call_timeout: float = 60.0
    #: Attempts per call including the first (so 3 = two retries).
    max_attempts: int = 3
    backoff_base: float = 1.0
    backoff_cap: float = 20.0
    #: A Retry-After longer than this is not waited for; the call fails instead.
    max_retry_wait: float = 30.0
    max_output_tokens: int = 4096

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> JudgeSettings:
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for name, attr, kind in (
            ("A11Y_LLM_MAX_CALLS", "max_calls", int),
            ("A11Y_LLM_BATCH_SIZE", "batch_size", int),
            ("A11Y_LLM_CONCURRENCY", "concurrency", int),
            ("A11Y_LLM_TIMEOUT", "call_timeout", float),
            ("A11Y_LLM_MAX_ATTEMPTS", "max_attempts", int),
        ):
            raw = env.get(name, "").strip()
            if raw:
                try:
                    value = kind(raw)
                except ValueError:
                    log.warning("ignoring %s: not a number", name)
                    continue
                if value > 0:
                    values[attr] = value
        return cls(**values)


@dataclass
class LlmOutcome:
    """What the review produced: a verdict per item key, usage and problems."""

    provider: str
    model: str
    reviews: dict[ItemKey, FindingReview] = field(default_factory=dict)
    questions: int = 0
    answered: int = 0
    skipped: int = 0
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    errors: list[str] = field(default_factory=list)
    failed_calls: int = 0
    planned_calls: int = 0

    @property
    def tokens_used(self) -> int:
        return self.input_tokens + self.output_tokens

    def error_text(self) -> str | None:
        """One line for ``llm.error``: what failed, or None when every call succeeded."""
        if not self.errors:
            return None
        unique = list(dict.fromkeys(self.errors))
        text = "; ".join(unique[:3]) + ("; ..." if len(unique) > 3 else "")
        if self.planned_calls and 0 < self.failed_calls < self.planned_calls:
            return f"{self.failed_calls} of {self.planned_calls} LLM calls failed: {text}"[:500]
        return text[:500]

    def summary(self) -> LlmSummary:
        return LlmSummary(
            provider=self.provider,
            model=self.model,
            reviewed=len(self.reviews),
            tokens_used=self.tokens_used,
            error=self.error_text(),
        )


class CallFailed(Exception):
    """One call gave up; the message is safe to show (already redacted)."""


class Redactor:
    """Removes key values (and anything shaped like a provider key) from text."""

    _SHAPES = re.compile(
        r"(?:sk-[A-Za-z0-9_\-*.]{6,}|xai-[A-Za-z0-9_\-*.]{6,}|AIza[0-9A-Za-z_\-]{10,}"
        r"|Bearer\s+\S+)"
    )

    def __init__(self, values: Sequence[str | None]) -> None:
        self.values = sorted({v for v in values if v and len(v) >= 4}, key=len, reverse=True)

    def __call__(self, text: str) -> str:
        for value in self.values:
            text = text.replace(value, "[redacted]")
        return self._SHAPES.sub("[redacted]", text)


# --------------------------------------------------------------------------- planning


@dataclass
class _Question:
    key: str
    evidence: ElementEvidence
    items: list[ItemKey] = field(default_factory=list)


def _questions(evidence: Sequence[Evidence]) -> list[_Question]:
    items = [item for ev in evidence for item in ev.items]
    items.sort(key=lambda i: _KIND_ORDER.get(i.kind, 3))  # stable: page order kept
    by_key: dict[str, _Question] = {}
    for item in items:
        key = question_key(item)
        question = by_key.setdefault(key, _Question(key, item))
        question.items.append(item.key)
    return list(by_key.values())


def plan_batches(
    questions: Sequence[_Question], settings: JudgeSettings, images: bool
) -> tuple[list[list[_Question]], int]:
    """Batches of at most ``batch_size`` questions and ``max_images_per_call`` images, at
    most ``max_calls`` of them; returns (batches, questions left out by the cap)."""
    batches: list[list[_Question]] = []
    current: list[_Question] = []
    shots = 0
    for question in questions:
        shot = 1 if images and question.evidence.screenshot is not None else 0
        if current and (len(current) >= settings.batch_size or shots + shot > settings.max_images_per_call):
            batches.append(current)
            current, shots = [], 0
        current.append(question)
        shots += shot
    if current:
        batches.append(current)
    kept = batches[: settings.max_calls]
    skipped = sum(len(b) for b in batches[settings.max_calls:])
    return kept, skipped


# --------------------------------------------------------------------------- calling


def _retry_after(response: httpx.Response) -> float | None:
    raw = response.headers.get("retry-after")
    if not raw:
        return None
    try:
        return max(0.0, float(raw))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(raw)
    except (TypeError, ValueError):
        return None
    now = datetime.datetime.now(when.tzinfo or datetime.UTC)
    return max(0.0, (when - now).total_seconds())


def _provider_message(provider: Provider, response: httpx.Response) -> str:
    try:
        message = provider.error_message(response.json())
    except ValueError:
        message = ""
    return message[:200] if message else response.reason_phrase or "no details"


class _Caller:
    def __init__(
        self,
        client: httpx.AsyncClient,
        provider: Provider,
        settings: JudgeSettings,
        redact: Redactor,
        outcome: LlmOutcome,
    ) -> None:
        self.client = client
        self.provider = provider
        self.settings = settings
        self.redact = redact
        self.outcome = outcome

    def _backoff(self, attempt: int) -> float:
        delay = min(self.settings.backoff_cap, self.settings.backoff_base * 2 ** (attempt - 1))
        return delay * random.uniform(0.5, 1.0)

    async def call(self, prompt: Prompt) -> Reply:
        import httpx

        request = self.provider.build(prompt)
        name = self.provider.name
        timeout = self.settings.call_timeout
        problem = ""
        for attempt in range(1, self.settings.max_attempts + 1):
            self.outcome.calls += 1
            delay: float | None = None
            try:
                with trio.fail_after(timeout):
                    response = await self.client.post(request.url, headers=request.headers, json=request.body)
            except (trio.TooSlowError, httpx.TimeoutException) as exc:
                raise CallFailed(f"{name} did not answer within {timeout:g} s") from exc
            except httpx.TransportError as exc:
                problem = f"could not reach {name}: {type(exc).__name__}: {self.redact(str(exc))[:160]}"
            else:
                status = response.status_code
                if status < 400:
                    return self._reply(response)
                message = self.redact(_provider_message(self.provider, response))
                if status in (401, 403):
                    raise CallFailed(f"{name} rejected the API key (HTTP {status}: {message})")
                if status != 429 and status < 500:
                    raise CallFailed(f"{name} refused the request (HTTP {status}: {message})")
                problem = f"{name} answered HTTP {status} ({message})"
                delay = _retry_after(response)
                if delay is not None and delay > self.settings.max_retry_wait:
                    raise CallFailed(f"{problem}; it asks to retry after {delay:g} s, too long to wait")
            if attempt == self.settings.max_attempts:
                break
            wait = delay if delay is not None else self._backoff(attempt)
            log.info("LLM call to %s: %s; retry %d in %.1f s", name, problem, attempt, wait)
            await trio.sleep(wait)
        raise CallFailed(f"{problem} after {self.settings.max_attempts} attempts")

    def _reply(self, response: httpx.Response) -> Reply:
        try:
            data = response.json()
        except ValueError as exc:
            raise CallFailed(f"{self.provider.name}'s response body is not JSON") from exc
        try:
            reply = self.provider.parse(data)
        except ReplyError as exc:
            raise CallFailed(f"{self.provider.name}: {self.redact(str(exc))}") from exc
        self.outcome.input_tokens += reply.input_tokens
        self.outcome.output_tokens += reply.output_tokens
        return reply


async def _run_batch(
    caller: _Caller, batch: list[_Question], number: int, images: bool, limiter: trio.CapacityLimiter
) -> None:
    outcome = caller.outcome
    ids = {f"q{i}": q for i, q in enumerate(batch, 1)}
    prompt = build_prompt(
        list((qid, q.evidence) for qid, q in ids.items()),
        images=images,
        max_output_tokens=caller.settings.max_output_tokens,
    )
    async with limiter:
        log.debug(
            "LLM call %d to %s (%s): %d item(s), %d image(s)",
            number, caller.provider.name, caller.provider.model, len(batch), len(prompt.images()),
        )
        try:
            reply = await caller.call(prompt)
            if not reply.text.strip() and reply.truncated:
                raise CallFailed("the answer was cut off at the output token limit")
            try:
                verdicts, _malformed = parse_reply(reply.text)
            except ReplyInvalid as exc:
                cut = " (cut off at the output token limit)" if reply.truncated else ""
                raise CallFailed(f"{caller.provider.name}: {exc}{cut}") from exc
        except CallFailed as exc:
            message = caller.redact(str(exc))
            log.warning("LLM call %d failed: %s", number, message)
            outcome.errors.append(message)
            outcome.failed_calls += 1
            return
    for verdict in verdicts:
        question = ids.pop(verdict.id, None)
        if question is None:
            continue
        review = FindingReview(
            verdict=verdict.verdict,
            confidence=verdict.confidence,
            reasoning=verdict.reasoning,
            suggested_fix=verdict.fix,
        )
        outcome.answered += 1
        for key in question.items:
            outcome.reviews[key] = review
    if ids:  # asked but not (validly) answered
        missing = len(ids)
        log.info("LLM call %d left %d item(s) unanswered", number, missing)
        outcome.errors.append(f"{caller.provider.name} left {missing} of {len(batch)} item(s) in a call unanswered")


async def review(
    evidence: Evidence | Sequence[Evidence],
    options: LlmOptions,
    *,
    environ: Mapping[str, str] | None = None,
    settings: JudgeSettings | None = None,
    deadline: float | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
) -> LlmOutcome:
    """Review every evidence item with the provider of ``options``; never raises.

    ``deadline`` (trio time) stops outstanding calls, keeping what was answered; ``transport``
    is for tests that want to replace the network.
    """
    pages = [evidence] if isinstance(evidence, Evidence) else list(evidence)
    settings = settings or JudgeSettings.from_env(environ)
    try:
        config: ProviderConfig = resolve(options.provider, options.model, environ)
    except LlmNotConfigured as exc:
        return LlmOutcome(options.provider, options.model or "", errors=[f"LLM not configured: {exc}"])
    provider = make_provider(config)
    outcome = LlmOutcome(config.provider, config.model)
    redact = Redactor([config.api_key, *secrets(environ)])
    questions = _questions(pages)
    outcome.questions = len(questions)
    batches, outcome.skipped = plan_batches(questions, settings, provider.accepts_images)
    outcome.planned_calls = len(batches)
    if outcome.skipped:
        log.info("LLM review: %d question(s) over the cap of %d call(s) were not asked",
                 outcome.skipped, settings.max_calls)
    if not batches:
        return outcome
    import httpx

    limiter = trio.CapacityLimiter(max(1, settings.concurrency))
    timeout = httpx.Timeout(settings.call_timeout, connect=min(10.0, settings.call_timeout))
    try:
        async with httpx.AsyncClient(timeout=timeout, transport=transport, follow_redirects=False) as client:
            caller = _Caller(client, provider, settings, redact, outcome)
            with trio.move_on_at(deadline if deadline is not None else float("inf")) as scope:
                async with trio.open_nursery() as nursery:
                    for number, batch in enumerate(batches, 1):
                        nursery.start_soon(_run_batch, caller, batch, number, provider.accepts_images, limiter)
            if scope.cancelled_caught:
                outcome.errors.append("the LLM review was stopped at the audit deadline")
    except Exception as exc:  # noqa: BLE001 - an LLM problem must never fail the audit
        message = redact(f"{type(exc).__name__}: {exc}")[:300]
        log.warning("LLM review failed: %s", message)
        outcome.errors.append(f"the LLM review failed: {message}")
    return outcome
