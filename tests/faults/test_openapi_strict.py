"""The OpenAPI document is exactly as strict as the server (issue #17 item 8): a URL matches
the document's pattern if and only if the server accepts it, and an integer the document
allows (``4.0`` included, as JSON Schema defines integers) is accepted."""

from __future__ import annotations

import random
import re

import pytest
from pydantic import ValidationError

from audit.models import URL_PATTERN, AuditRequest
from audit.openapi import openapi_schema

SAMPLES = [
    "http://example.com", "https://example.com/", "HTTP://EXAMPLE.COM/a?b#c", "http://a",
    "http://user:pw@host:8080/p", "http://u:p@ss@host/", "http://[::1]:80/", "http://[::1",
    "http://host:65535/", "http://host:65536/", "http://host:/", "http://host:x/",
    "http://", "http:///path", "http://@/", "ftp://host/", "file:///etc/passwd", "0",
    "//host/", "http:host", "https://a b/", "http://a/\u0007", "http://a/\u00e9", "http://é.com/",
    "http://a]b/", "javascript:alert(1)", "http://host#frag", "http://host?q", "https://x.y:0/",
]


def _accepted(url: str) -> bool:
    try:
        AuditRequest.model_validate({"url": url})
    except ValidationError:
        return False
    return True


def _pattern_says(url: str) -> bool:
    return re.fullmatch(URL_PATTERN, url) is not None


@pytest.mark.parametrize("url", SAMPLES)
def test_the_url_pattern_says_what_the_server_accepts(url):
    assert _pattern_says(url) == _accepted(url), url


def test_random_urls_agree_with_the_pattern():
    pieces = ["http", "https", "HTTP", "ftp", ":", "//", "/", "@", "[", "]", "::1", "host", "a.b",
              "?", "#", " ", "\t", "\u007f", "\u0001", "%", "8080", "99999", "u:p", "é", ""]
    rng = random.Random(17)
    for _ in range(3000):
        url = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 8)))
        assert _pattern_says(url) == _accepted(url), repr(url)


def test_the_document_publishes_the_pattern_and_integral_numbers_are_integers():
    url = openapi_schema()["components"]["schemas"]["AuditRequest"]["properties"]["url"]
    assert url["format"] == "uri" and url["pattern"] == URL_PATTERN
    request = AuditRequest.model_validate({"url": "http://a/", "crawl": {"depth": 3.0, "maxPages": 7.0}})
    assert (request.crawl.depth, request.crawl.max_pages) == (3, 7)
    assert isinstance(request.crawl.depth, int)
    for bad in (1.5, True, "2"):
        with pytest.raises(ValidationError):
            AuditRequest.model_validate({"url": "http://a/", "crawl": {"depth": bad}})
