"""LLM assistance end to end through the HTTP service (in-process, shared Chromium)."""

from __future__ import annotations

import logging

from tests.llm.conftest import KEYS
from tests.llm.pages import REVIEW_PAGE
from tests.service.conftest import assert_error, client_for, service_for


async def test_audit_with_llm_over_http(chromium, site, llm_env, fake_llm, caplog):
    caplog.set_level(logging.DEBUG)
    url = site.route("/llm/http.html", REVIEW_PAGE)
    async with service_for(chromium, environ=llm_env) as svc, client_for(svc) as client:
        body = {"url": url, "llm": {"enabled": True, "provider": "gemini", "includeFindings": True}}
        response = await client.post("/audit", json=body)
    assert response.status_code == 200, response.text
    result = response.json()
    assert result["llm"] == {"provider": "gemini", "model": "gemini-2.5-flash", "reviewed": 6,
                             "tokensUsed": result["llm"]["tokensUsed"], "error": None}
    assert result["llm"]["tokensUsed"] > 500
    contrast = next(f for f in result["findings"] if f["ruleId"] == "color-contrast")
    assert contrast["source"] == "axe"
    assert set(contrast["llm"]) == {"verdict", "confidence", "reasoning", "suggestedFix"}
    llm_rules = sorted(f["ruleId"] for f in result["findings"] if f["source"] == "llm")
    assert llm_rules == ["llm-alt-text-meaningful", "llm-link-purpose", "llm-link-purpose"]
    assert result["stats"]["totalFindings"] == len(result["findings"]) == 4
    assert [r.path for r in fake_llm.requests] == ["/v1beta/models/gemini-2.5-flash:generateContent"]
    for secret in KEYS.values():
        assert secret not in response.text
        assert secret not in caplog.text


async def test_provider_failure_is_a_200_with_llm_error(chromium, site, llm_env, fake_llm, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-revoked-SECRET-1")
    url = site.route("/llm/http-401.html", REVIEW_PAGE)
    async with service_for(chromium) as svc, client_for(svc) as client:
        response = await client.post("/audit", json={"url": url, "llm": {"enabled": True, "provider": "openai"}})
    assert response.status_code == 200, response.text
    result = response.json()
    assert "openai rejected the API key (HTTP 401" in result["llm"]["error"]
    assert result["llm"]["reviewed"] == 0
    assert all(f["llm"] is None for f in result["findings"])
    assert "SECRET" not in response.text


async def test_missing_key_is_rejected_before_the_page_or_provider_is_touched(chromium, site, fake_llm, llm_env):
    env = {k: v for k, v in llm_env.items() if k != "XAI_API_KEY"}
    path = "/llm/never-opened.html"
    url = site.route(path, REVIEW_PAGE)
    async with service_for(chromium, environ=env) as svc, client_for(svc) as client:
        response = await client.post("/audit", json={"url": url, "llm": {"enabled": True, "provider": "xai"}})
    error = assert_error(response, 400, "llm_not_configured")
    assert "XAI_API_KEY" in error["message"]
    assert not [r for r in site.log if r.path == path]
    assert fake_llm.requests == []
