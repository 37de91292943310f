"""Every 400 of decisions.md through real HTTP: the code, and the offending field in details.

None of these may reach the browser: the target routes are registered on the test site and
its request log must stay empty for them.
"""

from __future__ import annotations

import json

import httpx
import pytest

from tests.service.conftest import assert_error, client_for, service_for

GOOD_URL = "http://127.0.0.1:9/never-opened"


def _fields(error: dict) -> list[str]:
    return [d["field"] for d in error["details"]]


INVALID = [
    pytest.param({}, "url", id="missing-url"),
    pytest.param({"url": "javascript:alert(1)"}, "url", id="scheme-javascript"),
    pytest.param({"url": "file:///etc/passwd"}, "url", id="scheme-file"),
    pytest.param({"url": "data:text/html,<p>x</p>"}, "url", id="scheme-data"),
    pytest.param({"url": "chrome://settings"}, "url", id="scheme-chrome"),
    pytest.param({"url": "ftp://example.com/"}, "url", id="scheme-ftp"),
    pytest.param({"url": "example.com/page"}, "url", id="relative-url"),
    pytest.param({"url": "http://"}, "url", id="no-host"),
    pytest.param({"url": ""}, "url", id="empty-url"),
    pytest.param({"url": "http://example.com/" + "a" * 2030}, "url", id="url-too-long"),
    pytest.param({"url": 42}, "url", id="url-not-string"),
    pytest.param({"url": GOOD_URL, "level": "AAAA"}, "level", id="bad-level"),
    pytest.param({"url": GOOD_URL, "level": "B"}, "level", id="bad-level-letter"),
    pytest.param({"url": GOOD_URL, "level": 2}, "level", id="level-not-string"),
    pytest.param({"url": GOOD_URL, "version": "3.0"}, "version", id="bad-version"),
    pytest.param({"url": GOOD_URL, "version": 2.1}, "version", id="version-number"),
    pytest.param({"url": GOOD_URL, "colour": "red"}, "colour", id="unknown-top-level"),
    pytest.param({"url": GOOD_URL, "crawl": {"enabled": True, "speed": 3}}, "crawl.speed",
                 id="unknown-nested-crawl"),
    pytest.param({"url": GOOD_URL, "llm": {"temperature": 0}}, "llm.temperature",
                 id="unknown-nested-llm"),
    pytest.param({"url": GOOD_URL, "crawl": {"max_pages": 3}}, "crawl.max_pages",
                 id="snake-case-name-is-unknown"),
    pytest.param({"url": GOOD_URL, "crawl": "yes"}, "crawl", id="crawl-not-object"),
    pytest.param({"url": GOOD_URL, "crawl": {"enabled": "true"}}, "crawl.enabled",
                 id="enabled-string"),
    pytest.param({"url": GOOD_URL, "crawl": {"depth": "2"}}, "crawl.depth", id="depth-string"),
    pytest.param({"url": GOOD_URL, "crawl": {"depth": 1.5}}, "crawl.depth", id="depth-float"),
    pytest.param({"url": GOOD_URL, "crawl": {"depth": -1}}, "crawl.depth", id="depth-negative"),
    pytest.param({"url": GOOD_URL, "crawl": {"depth": 6}}, "crawl.depth", id="depth-6"),
    pytest.param({"url": GOOD_URL, "crawl": {"maxPages": 0}}, "crawl.maxPages", id="maxpages-0"),
    pytest.param({"url": GOOD_URL, "crawl": {"maxPages": 501}}, "crawl.maxPages",
                 id="maxpages-501"),
    pytest.param({"url": GOOD_URL, "llm": {"enabled": 1}}, "llm.enabled", id="llm-enabled-int"),
    pytest.param({"url": GOOD_URL, "llm": {"provider": "skynet"}}, "llm.provider",
                 id="unknown-provider"),
    pytest.param({"url": GOOD_URL, "llm": {"model": ""}}, "llm.model", id="empty-model"),
    pytest.param({"url": GOOD_URL, "llm": {"model": "   "}}, "llm.model", id="blank-model"),
    pytest.param({"url": GOOD_URL, "bestPractices": "no"}, "bestPractices",
                 id="best-practices-string"),
    pytest.param([GOOD_URL], "body", id="body-array"),
    pytest.param("http://example.com", "body", id="body-string"),
]


@pytest.mark.parametrize(("body", "field"), INVALID)
async def test_invalid_request_names_the_field(client, body, field):
    error = assert_error(await client.post("/audit", json=body), 400, "invalid_request")
    assert field in _fields(error), error
    for detail in error["details"]:
        assert set(detail) == {"field", "message"} and detail["message"]


async def test_several_bad_fields_are_all_reported(client):
    body = {"url": "file:///x", "level": "Z", "crawl": {"depth": 9, "maxPages": 0}, "extra": 1}
    error = assert_error(await client.post("/audit", json=body), 400, "invalid_request")
    assert set(_fields(error)) >= {"url", "level", "crawl.depth", "crawl.maxPages", "extra"}


async def test_max_pages_above_the_server_cap(chromium):
    async with service_for(chromium, max_pages=10) as svc, client_for(svc) as client:
        body = {"url": GOOD_URL, "crawl": {"enabled": True, "maxPages": 11}}
        error = assert_error(await client.post("/audit", json=body), 400, "invalid_request")
        assert _fields(error) == ["crawl.maxPages"]
        assert "10" in error["details"][0]["message"]


@pytest.mark.parametrize(
    "raw",
    [b"{", b"", b'{"url": "http://a.test",}', b"NaN", b'{"url": NaN}', b"\xff\xfe\x00garbage",
     b"[" * 5000, b'{"a":' * 5000 + b"1" + b"}" * 5000, b"[" * 33 + b"]" * 33],
    ids=["truncated", "empty", "trailing-comma", "nan", "nan-inside", "bad-bytes",
         "deep-array", "deep-object", "just-too-deep"],
)
async def test_invalid_json(client, raw):
    response = await client.post("/audit", content=raw, headers={"Content-Type": "application/json"})
    assert_error(response, 400, "invalid_json")


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
     "application/jsonx", None],
    ids=["text", "form", "multipart", "lookalike", "missing"],
)
async def test_wrong_content_type(client, content_type):
    headers = {"Content-Type": content_type} if content_type else {}
    body = json.dumps({"url": GOOD_URL}).encode()
    request = client.build_request("POST", "/audit", content=body, headers=headers)
    assert request.headers.get("Content-Type") == content_type
    assert_error(await client.send(request), 400, "unsupported_media_type")


async def test_json_content_type_with_charset_is_accepted(client):
    response = await client.post(
        "/audit", content=b'{"level": "A"}',
        headers={"Content-Type": "application/json; charset=utf-8"},
    )
    error = assert_error(response, 400, "invalid_request")
    assert _fields(error) == ["url"]


async def test_body_over_64_kib_with_content_length(client):
    body = json.dumps({"url": GOOD_URL, "pad": "x" * (64 * 1024)}).encode()
    response = await client.post("/audit", content=body, headers={"Content-Type": "application/json"})
    assert_error(response, 400, "payload_too_large")


async def test_body_over_64_kib_streamed_without_length(client):
    """Chunked upload: no Content-Length to check, so the read itself must stop at the cap."""
    sent = 0

    async def chunks():
        nonlocal sent
        yield b'{"url": "' + GOOD_URL.encode() + b'", "pad": "'
        for _ in range(64):  # 4 MiB in total unless the server stops reading
            sent += 64 * 1024
            yield b"x" * (64 * 1024)
        yield b'"}'

    try:
        response = await client.post(
            "/audit", content=chunks(), headers={"Content-Type": "application/json"}
        )
    except httpx.WriteError:  # the server may answer and close before we finish sending
        return
    assert_error(response, 400, "payload_too_large")


async def test_body_just_under_the_limit_is_read(client):
    pad = "x" * (64 * 1024 - 200)
    body = json.dumps({"url": "file:///x", "p": pad}).encode()
    assert len(body) <= 64 * 1024
    error = assert_error(
        await client.post("/audit", content=body, headers={"Content-Type": "application/json"}),
        400, "invalid_request",
    )
    assert set(_fields(error)) == {"url", "p"}


@pytest.mark.parametrize(
    ("provider", "env_var"),
    [("anthropic", "ANTHROPIC_API_KEY"), ("openai", "OPENAI_API_KEY"),
     ("gemini", "GEMINI_API_KEY"), ("xai", "XAI_API_KEY"),
     ("openai-compatible", "A11Y_LLM_BASE_URL")],
)
async def test_llm_not_configured_before_any_page_is_opened(
    client, site, monkeypatch, provider, env_var
):
    monkeypatch.delenv(env_var, raising=False)
    path = f"/llm-never-opened-{provider}"
    url = site.route(path, "<!doctype html><title>x</title>")
    body = {"url": url, "llm": {"enabled": True, "provider": provider, "model": "m"}}
    error = assert_error(await client.post("/audit", json=body), 400, "llm_not_configured")
    assert env_var in error["message"]
    assert _fields(error) == ["llm.provider"]
    assert not [r for r in site.log if r.path == path]


async def test_llm_bad_base_url_override_is_not_configured(client, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-used")
    monkeypatch.setenv("OPENAI_BASE_URL", "ftp://models.internal")
    body = {"url": GOOD_URL, "llm": {"enabled": True, "provider": "openai"}}
    error = assert_error(await client.post("/audit", json=body), 400, "llm_not_configured")
    assert "OPENAI_BASE_URL" in error["message"]
    assert "sk-test-not-used" not in str(error)


async def test_llm_default_provider_needs_anthropic_key(client, monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    body = {"url": GOOD_URL, "llm": {"enabled": True}}
    error = assert_error(await client.post("/audit", json=body), 400, "llm_not_configured")
    assert "ANTHROPIC_API_KEY" in error["message"]


async def test_llm_settings_are_not_checked_when_disabled(client, monkeypatch):
    """A disabled LLM block never needs a key; the body is rejected for its URL only."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    body = {"url": "file:///x", "llm": {"enabled": False, "provider": "openai"}}
    error = assert_error(await client.post("/audit", json=body), 400, "invalid_request")
    assert _fields(error) == ["url"]


@pytest.mark.parametrize(
    ("method", "path", "status", "code"),
    [("GET", "/nowhere", 404, "not_found"), ("GET", "/audit", 405, "method_not_allowed"),
     ("DELETE", "/audit", 405, "method_not_allowed"), ("POST", "/health", 405, "method_not_allowed")],
)
async def test_unknown_routes_and_methods_use_the_error_body(client, method, path, status, code):
    assert_error(await client.request(method, path), status, code)
