"""The job request: the /audit request's rules, plus the crawl's job-only fields."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from audit.models import request_errors
from jobs.models import JobRequest


def errors(body: dict) -> list[dict[str, str]]:
    with pytest.raises(ValidationError) as caught:
        JobRequest.model_validate(body)
    return request_errors(caught.value)


def test_defaults_and_job_sized_crawls():
    request = JobRequest.model_validate(
        {"url": "https://a.test/", "crawl": {"enabled": True, "maxPages": 100_000, "urls": ["https://a.test/x"]}}
    )
    crawl = request.model_dump(mode="json")["crawl"]
    assert crawl == {"enabled": True, "depth": 2, "maxPages": 100_000, "urls": ["https://a.test/x"],
                     "sitemap": False, "respectRobots": True, "perOrigin": 4, "delayMs": 0}
    assert request.level == "AA" and request.version == "2.2"


@pytest.mark.parametrize(("body", "field", "message"), [
    ({"crawl": {"maxPages": 4.5}}, "crawl.maxPages", "Expected an integer."),
    ({"crawl": {"maxPages": 100_001}}, "crawl.maxPages", "Must be at most 100000."),
    ({"crawl": {"perOrigin": 0}}, "crawl.perOrigin", "Must be at least 1."),
    ({"crawl": {"delayMs": 60_001}}, "crawl.delayMs", "Must be at most 60000."),
    ({"crawl": {"sitemap": "true"}}, "crawl.sitemap", "Expected a boolean (true or false)."),
    ({"crawl": {"urls": ["ftp://a.test/"]}}, "crawl.urls[0]", "Scheme 'ftp' is not allowed; only http and https URLs can be audited."),
    ({"crawl": {"urls": ["https://a.test/", "https://b.test/"]}}, "crawl.urls[1]", "Must be on the same origin as url."),
    ({"crawl": {"unknown": 1}}, "crawl.unknown", "Unknown field 'unknown'."),
    ({"llm": {"enabled": True}}, "llm.enabled", "LLM review is not available for jobs; use POST /audit."),
])
def test_bad_fields_are_reported_at_the_field(body, field, message):
    assert errors({"url": "https://a.test/", **body}) == [{"field": field, "message": message}]
