"""The body of a job (``POST /audits``): the ``/audit`` request with a crawl made for sites.

Everything but ``crawl`` is :class:`audit.models.AuditRequest` itself (subclassed, so the
validation, defaults, JSON names and error messages are the same ones); ``crawl`` grows the
job-only settings. Like every request model it accepts JSON names only and no coercion
beyond JSON Schema's own: ``4.0`` is the integer 4 (``audit.models.JsonInt``), ``4.5`` is
not an integer, ``"true"`` is not a boolean.
"""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, Field, StrictBool, ValidationError, model_validator
from pydantic_core import InitErrorDetails, PydanticCustomError

from audit.crawl import origin_of
from audit.models import AuditRequest, AuditUrl, CrawlOptions, JsonInt
from audit.request_options import ONE_OF_VIEWPORTS, RELATIONS

JOB_MAX_PAGES_MAX = 100_000
MAX_SEED_URLS = 1_000
PER_ORIGIN_MAX = 32
DELAY_MS_MAX = 60_000


class JobCrawl(CrawlOptions):
    """The crawl of a job: the ``/audit`` crawl (``enabled``, ``depth``, ``maxPages`` up to
    100,000) plus extra seeds and politeness.

    - ``urls``: more start pages (depth 0, after ``url``), on ``url``'s origin.
    - ``sitemap``: seed from the site's sitemaps (robots.txt ``Sitemap:`` lines, else
      ``/sitemap.xml``; indexes and gzip followed) at depth 1, after the start pages' links.
    - ``respectRobots``: pages robots.txt disallows for the ``a11y`` agent are recorded
      ``skipped``, not loaded.
    - ``perOrigin`` / ``delayMs``: at most that many pages of one origin in flight per worker
      process, and page starts of one origin at least ``delayMs`` apart per worker process.
    """

    max_pages: JsonInt = Field(50, ge=1, le=JOB_MAX_PAGES_MAX)
    urls: list[AuditUrl] = Field(default_factory=list, max_length=MAX_SEED_URLS)
    sitemap: StrictBool = False
    respect_robots: StrictBool = True
    per_origin: JsonInt = Field(4, ge=1, le=PER_ORIGIN_MAX)
    delay_ms: JsonInt = Field(0, ge=0, le=DELAY_MS_MAX)


SAME_ORIGIN_RULE = "Must be on the same origin as url."


class JobRequest(AuditRequest):
    """Body of POST /audits. Two rules beyond the field types, reported at the field:
    ``crawl.urls`` must share ``url``'s origin, and LLM review (which needs every page's
    evidence in one process) is only offered by the synchronous ``/audit``. Both are in the
    document: the second as a schema rule, the first (which JSON Schema cannot state) among
    the body's ``x-relations``."""

    model_config = ConfigDict(json_schema_extra={
        **ONE_OF_VIEWPORTS,
        "allOf": [{"properties": {"llm": {"properties": {"enabled": {"const": False}}}}}],
        "x-relations": [*RELATIONS, {"field": "crawl.urls[]", "rule": SAME_ORIGIN_RULE}],
    })

    crawl: JobCrawl = Field(default_factory=JobCrawl)  # type: ignore[assignment]
    screenshots: StrictBool = Field(
        True, description="Keep a picture of each finding's element and of each page (false: faster).")

    @model_validator(mode="after")
    def _job_rules(self) -> JobRequest:
        problems: list[InitErrorDetails] = []
        if self.llm.enabled:
            problems.append(_problem(
                ("llm", "enabled"), True, "llm_not_for_jobs",
                "LLM review is not available for jobs; use POST /audit.",
            ))
        origin = origin_of(self.url)
        for index, seed in enumerate(self.crawl.urls):
            if origin_of(seed) != origin:
                problems.append(_problem(
                    ("crawl", "urls", index), seed, "url_origin", SAME_ORIGIN_RULE,
                ))
        if problems:
            raise ValidationError.from_exception_data(type(self).__name__, problems)
        return self


def _problem(loc: tuple[str | int, ...], value: Any, code: str, message: str) -> InitErrorDetails:
    return InitErrorDetails(type=PydanticCustomError(code, message), loc=loc, input=value)

