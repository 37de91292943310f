import json

import pytest
from pydantic import ValidationError

from audit.models import (
    AuditRequest,
    AuditResult,
    EngineInfo,
    Finding,
    HealthStatus,
    PageResult,
    Stats,
    error_body,
    request_errors,
    validate_against_limits,
)

OK_URL = "https://example.com/"


def errors_of(body) -> list[dict[str, str]]:
    with pytest.raises(ValidationError) as info:
        AuditRequest.model_validate(body)
    return request_errors(info.value)


def fields_of(body) -> list[str]:
    return [e["field"] for e in errors_of(body)]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "url"),
        ({"level": "AA"}, "url"),
        ({"url": "javascript:alert(1)"}, "url"),
        ({"url": "file:///etc/passwd"}, "url"),
        ({"url": "data:text/html,<h1>x</h1>"}, "url"),
        ({"url": "chrome://settings"}, "url"),
        ({"url": "ftp://example.com/"}, "url"),
        ({"url": "example.com"}, "url"),
        ({"url": "/relative/path"}, "url"),
        ({"url": "http:///no-host"}, "url"),
        ({"url": "http://exa mple.com/"}, "url"),
        ({"url": "http://example.com:99999/"}, "url"),
        ({"url": ""}, "url"),
        ({"url": "https://example.com/" + "a" * 2048}, "url"),
        ({"url": 5}, "url"),
        ({"url": OK_URL, "level": "B"}, "level"),
        ({"url": OK_URL, "level": "AAAA"}, "level"),
        ({"url": OK_URL, "level": 2}, "level"),
        ({"url": OK_URL, "version": "3.0"}, "version"),
        ({"url": OK_URL, "version": 2.1}, "version"),
        ({"url": OK_URL, "version": "2"}, "version"),
        ({"url": OK_URL, "bogus": 1}, "bogus"),
        ({"url": OK_URL, "crawl": {"enabled": True, "foo": 1}}, "crawl.foo"),
        ({"url": OK_URL, "llm": {"temperature": 1}}, "llm.temperature"),
        ({"url": OK_URL, "crawl": {"max_pages": 3}}, "crawl.max_pages"),
        ({"url": OK_URL, "crawl": {"enabled": "true"}}, "crawl.enabled"),
        ({"url": OK_URL, "crawl": {"enabled": 1}}, "crawl.enabled"),
        ({"url": OK_URL, "llm": {"enabled": "false"}}, "llm.enabled"),
        ({"url": OK_URL, "llm": {"includeFindings": "yes"}}, "llm.includeFindings"),
        ({"url": OK_URL, "bestPractices": "true"}, "bestPractices"),
        ({"url": OK_URL, "crawl": {"depth": "2"}}, "crawl.depth"),
        ({"url": OK_URL, "crawl": {"depth": 2.5}}, "crawl.depth"),
        ({"url": OK_URL, "crawl": {"depth": True}}, "crawl.depth"),
        ({"url": OK_URL, "crawl": {"maxPages": "10"}}, "crawl.maxPages"),
        ({"url": OK_URL, "crawl": {"depth": 6}}, "crawl.depth"),
        ({"url": OK_URL, "crawl": {"depth": -1}}, "crawl.depth"),
        ({"url": OK_URL, "crawl": {"maxPages": 0}}, "crawl.maxPages"),
        ({"url": OK_URL, "crawl": {"maxPages": 501}}, "crawl.maxPages"),
        ({"url": OK_URL, "crawl": "yes"}, "crawl"),
        ({"url": OK_URL, "crawl": None}, "crawl"),
        ({"url": OK_URL, "llm": {"provider": "mistral"}}, "llm.provider"),
        ({"url": OK_URL, "llm": {"provider": "Anthropic"}}, "llm.provider"),
        ({"url": OK_URL, "llm": {"model": ""}}, "llm.model"),
        ({"url": OK_URL, "llm": {"model": "   "}}, "llm.model"),
        ({"url": OK_URL, "llm": {"model": 4}}, "llm.model"),
        ([], "body"),
        ("https://example.com", "body"),
    ],
)
def test_invalid_request_reports_dotted_field(body, field):
    errs = errors_of(body)
    assert field in [e["field"] for e in errs], errs
    for e in errs:
        assert set(e) == {"field", "message"}
        assert e["message"] and e["message"][0].isupper() and e["message"].endswith(".")


def test_messages_are_human():
    assert errors_of({}) == [{"field": "url", "message": "This field is required."}]
    (e,) = errors_of({"url": OK_URL, "bogus": 1})
    assert e["message"] == "Unknown field 'bogus'."
    (e,) = errors_of({"url": OK_URL, "crawl": {"enabled": "true"}})
    assert "boolean" in e["message"]
    (e,) = errors_of({"url": OK_URL, "crawl": {"maxPages": "2"}})
    assert "integer" in e["message"]
    (e,) = errors_of({"url": OK_URL, "crawl": {"depth": 6}})
    assert e["message"] == "Must be at most 5."
    (e,) = errors_of({"url": OK_URL, "crawl": {"maxPages": 0}})
    assert e["message"] == "Must be at least 1."
    (e,) = errors_of({"url": "javascript:alert(1)"})
    assert "javascript" in e["message"] and "http" in e["message"]
    (e,) = errors_of({"url": OK_URL, "level": "x"})
    assert "'A', 'AA' or 'AAA'" in e["message"]
    (e,) = errors_of({"url": OK_URL, "crawl": "yes"})
    assert "object" in e["message"]


def test_several_errors_reported_together():
    fields = fields_of(
        {"url": "file:///x", "level": "Z", "crawl": {"depth": 9, "maxPages": 0}, "extra": 1}
    )
    assert set(fields) == {"url", "level", "crawl.depth", "crawl.maxPages", "extra"}


def test_url_length_boundary():
    base = "https://example.com/"
    ok = base + "a" * (2048 - len(base))
    assert AuditRequest.model_validate({"url": ok}).url == ok
    assert fields_of({"url": ok + "a"}) == ["url"]


def test_defaults():
    req = AuditRequest.model_validate({"url": OK_URL})
    assert req.model_dump(mode="json") == {
        "url": OK_URL,
        "level": "AA",
        "version": "2.2",
        "crawl": {"enabled": False, "depth": 2, "maxPages": 50},
        "llm": {"enabled": False, "provider": "anthropic", "model": None, "includeFindings": False},
        "bestPractices": False,
    }


@pytest.mark.parametrize(("given", "expected"), [("a", "A"), ("aa", "AA"), ("aAa", "AAA")])
def test_level_case_insensitive_in_upper_out(given, expected):
    req = AuditRequest.model_validate({"url": OK_URL, "level": given})
    assert req.level == expected
    assert req.model_dump(mode="json")["level"] == expected


def test_full_valid_request_from_json():
    body = {
        "url": "HTTP://Example.com:8080/path?q=1#frag",
        "level": "AAA",
        "version": "2.0",
        "crawl": {"enabled": True, "depth": 0, "maxPages": 500},
        "llm": {
            "enabled": True,
            "provider": "openai-compatible",
            "model": "llama3",
            "includeFindings": True,
        },
        "bestPractices": True,
    }
    req = AuditRequest.model_validate_json(json.dumps(body))
    assert req.crawl.max_pages == 500 and req.crawl.depth == 0
    assert req.llm.provider == "openai-compatible" and req.best_practices is True
    assert req.model_dump(mode="json") == body


def test_invalid_json_body_is_reported():
    with pytest.raises(ValidationError) as info:
        AuditRequest.model_validate_json('{"url": ')
    assert request_errors(info.value)[0]["field"] == "body"


def test_server_max_pages_cap():
    explicit = AuditRequest.model_validate({"url": OK_URL, "crawl": {"maxPages": 40}})
    with pytest.raises(ValidationError) as info:
        validate_against_limits(explicit, 10)
    assert request_errors(info.value) == [
        {"field": "crawl.maxPages", "message": "Must be at most 10 on this server."}
    ]
    assert validate_against_limits(explicit, 40) is explicit
    # Left to its default, maxPages is lowered to the cap instead of failing.
    implicit = AuditRequest.model_validate({"url": OK_URL})
    capped = validate_against_limits(implicit, 10)
    assert capped.crawl.max_pages == 10
    assert implicit.crawl.max_pages == 50  # the original is untouched


def test_error_body_shape():
    body = error_body(
        "invalid_request", "The request is invalid.", [{"field": "url", "message": "x"}]
    )
    assert body == {
        "error": {
            "code": "invalid_request",
            "message": "The request is invalid.",
            "details": [{"field": "url", "message": "x"}],
        }
    }
    assert error_body("timeout", "Took too long.") == {
        "error": {"code": "timeout", "message": "Took too long.", "details": []}
    }


def make_finding(**kw) -> Finding:
    data = dict(
        id="f1",
        rule_id="image-alt",
        description="d",
        impact="critical",
        level="A",
        element="img",
        selector="img",
        html="<img>",
        success_criteria=["1.1.1"],
        help="https://dequeuniversity.com/rules/axe/4.11/image-alt",
        page_url=OK_URL,
    )
    data.update(kw)
    return Finding(**data)


def test_result_serializes_camel_case():
    result = AuditResult(
        url=OK_URL,
        wcag_version="2.2",
        wcag_level="AA",
        score=87.54,
        conformant=False,
        stats=Stats(total_pages=1, total_findings=1, critical=1),
        findings=[make_finding()],
        pages=[PageResult(url=OK_URL, status="ok", http_status=200, score=87.54, findings=1)],
        duration_ms=1200,
        engine=EngineInfo(version="4.11.4"),
    )
    data = result.model_dump(mode="json")
    assert data == result.model_dump(mode="json", by_alias=True, exclude_none=False)
    assert {
        "url",
        "wcagVersion",
        "wcagLevel",
        "score",
        "conformant",
        "stats",
        "findings",
        "needsReview",
        "bestPractices",
        "pages",
        "durationMs",
        "engine",
        "llm",
        "problems",
    } == set(data)
    assert data["score"] == 87.5 and data["pages"][0]["score"] == 87.5
    assert set(data["stats"]) == {
        "totalPages",
        "totalFindings",
        "critical",
        "serious",
        "moderate",
        "minor",
    }
    f = data["findings"][0]
    for key in (
        "id",
        "ruleId",
        "description",
        "impact",
        "level",
        "element",
        "selector",
        "html",
        "successCriteria",
        "help",
        "helpText",
        "pageUrl",
        "failureSummary",
        "source",
        "llm",
    ):
        assert key in f
    assert data["engine"] == {"name": "axe-core", "version": "4.11.4"}
    assert set(data["pages"][0]) == {
        "url",
        "status",
        "httpStatus",
        "score",
        "findings",
        "error",
        "untestedFrames",
        "rulesTested",
        "dialogs",
    }
    # JSON names are accepted back.
    assert AuditResult.model_validate(data) == result


def test_finding_html_clipped_and_impact_checked():
    assert len(make_finding(html="<a " + "x" * 500 + ">").html) == 300
    with pytest.raises(ValidationError):
        make_finding(impact="blocker")
    with pytest.raises(ValidationError):
        make_finding(level="AAAA")


def test_health_status():
    data = HealthStatus(browser={"connected": True, "version": "Chrome/130"}).model_dump(
        mode="json"
    )
    assert data["status"] == "healthy"
    assert data["browser"] == {"connected": True, "version": "Chrome/130"}
    assert data["version"].count(".") >= 1 and all(p.isdigit() for p in data["version"].split("."))
