"""GET /health, GET /openapi.json and bearer-token auth on POST /audit."""

from __future__ import annotations

import re
from contextlib import asynccontextmanager

from a11y.cli import build_parser
from a11y.service import ServiceConfig
from audit.meta import package_version
from cdpdriver import BrowserLaunchError
from tests.service.conftest import assert_error, client_for, service_for

BAD_BODY = {"url": "file:///etc/passwd"}  # passes auth, then fails validation: no audit runs


async def test_health_reports_version_and_browser(client):
    response = await client.get("/health")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "healthy"
    assert body["version"] == package_version()
    assert re.fullmatch(r"\d+(\.\d+)+", body["version"])
    assert body["browser"]["connected"] is True
    assert re.match(r"(Headless)?Chrome/\d+", body["browser"]["version"])


def _broken_browser():
    @asynccontextmanager
    async def opener():
        raise BrowserLaunchError("no browser on this test machine")
        yield  # pragma: no cover

    return opener()


async def test_health_is_503_when_the_browser_cannot_start():
    async with service_for(None, browser_factory=_broken_browser) as svc, client_for(svc) as client:
        response = await client.get("/health")
        assert response.status_code == 503
        body = response.json()
        assert body["status"] == "unhealthy"
        assert "no browser on this test machine" in body["reason"]
        assert body["version"] == package_version()
        assert body["browser"]["connected"] is False
        # An audit cannot run either; it says so instead of hanging.
        audit = await client.post("/audit", json={"url": "http://127.0.0.1:9/"})
        error = assert_error(audit, 503, "browser_unavailable")
        assert "no browser on this test machine" in error["message"]
        assert audit.headers["Retry-After"].isdigit()


async def test_openapi_document(client):
    response = await client.get("/openapi.json")
    assert response.status_code == 200
    doc = response.json()
    assert doc["openapi"].startswith("3.")
    assert set(doc["paths"]) >= {"/audit", "/health"}
    assert "post" in doc["paths"]["/audit"] and "get" in doc["paths"]["/health"]
    assert doc["info"]["version"] == package_version()


async def test_token_required_when_configured(chromium):
    async with service_for(chromium, token="s3cret-token") as svc, client_for(svc) as client:
        missing = await client.post("/audit", json=BAD_BODY)
        assert_error(missing, 401, "unauthorized")
        assert missing.headers["WWW-Authenticate"].startswith("Bearer")
        for header in ("Bearer wrong", "Bearer s3cret-token-and-more", "Basic czNjcmV0LXRva2Vu",
                       "s3cret-token", "Bearer", ""):
            response = await client.post("/audit", json=BAD_BODY, headers={"Authorization": header})
            assert_error(response, 401, "unauthorized")
        # Auth comes before any other check: no hint about the body to a stranger.
        response = await client.post("/audit", content=b"{", headers={"Content-Type": "text/plain"})
        assert_error(response, 401, "unauthorized")
        for header in ("Bearer s3cret-token", "bearer s3cret-token"):
            response = await client.post("/audit", json=BAD_BODY, headers={"Authorization": header})
            assert_error(response, 400, "invalid_request")
        # Health and the API description stay open for probes.
        assert (await client.get("/health")).status_code == 200
        assert (await client.get("/openapi.json")).status_code == 200


async def test_no_token_configured_means_no_auth(client):
    assert_error(await client.post("/audit", json=BAD_BODY), 400, "invalid_request")
    response = await client.post("/audit", json=BAD_BODY, headers={"Authorization": "Bearer x"})
    assert_error(response, 400, "invalid_request")


def test_token_from_environment_or_option():
    parser = build_parser()
    args = parser.parse_args(["serve", "--port", "0"])
    assert ServiceConfig.from_args(args, {"A11Y_API_TOKEN": "from-env"}).token == "from-env"
    assert ServiceConfig.from_args(args, {}).token is None
    assert ServiceConfig.from_args(args, {"A11Y_API_TOKEN": ""}).token is None
    args = parser.parse_args(["serve", "--token", "from-flag"])
    assert ServiceConfig.from_args(args, {"A11Y_API_TOKEN": "from-env"}).token == "from-flag"


def test_serve_options_map_to_the_config():
    args = build_parser().parse_args([
        "serve", "--port", "9999", "--host", "0.0.0.0", "--concurrency", "2", "--max-pages", "20",
        "--queue-size", "3", "--block-private-networks", "--navigation-timeout", "5",
        "--audit-timeout", "60",
    ])
    config = ServiceConfig.from_args(args, {})
    assert (config.port, config.host, config.concurrency, config.max_pages, config.queue_size) == (
        9999, "0.0.0.0", 2, 20, 3)
    assert config.block_private_networks is True
    assert (config.navigation_timeout, config.audit_timeout) == (5.0, 60.0)
    limits = config.engine_limits()
    assert (limits.navigation_timeout, limits.audit_timeout, limits.concurrency,
            limits.block_private_networks) == (5.0, 60.0, 2, True)
