"""What of a request is secret, how it is kept apart from the stored request, and back."""

from __future__ import annotations

import json

from jobs.models import JobRequest
from jobs.secrets import merge_secrets, public_request, split_secrets, with_credentials

CANARY = "canary-7f3a"


def given() -> dict:
    return {
        "url": f"https://alice:{CANARY}@site.test/start",
        "level": "AA",
        "crawl": {"enabled": True, "urls": ["https://site.test/a", f"https://bob:{CANARY}b@site.test/b"]},
        "auth": {
            "cookies": [{"name": "sid", "value": CANARY}],
            "headers": {"Authorization": f"Bearer {CANARY}"},
            "storageState": {"origins": [{"localStorage": [{"name": "t", "value": CANARY}]}]},
            "login": [{"action": "fill", "value": CANARY}],
        },
    }


def test_the_stored_request_holds_no_secret_and_merging_gives_the_request_back():
    request = given()
    kept = json.dumps(request)
    redacted, secrets = split_secrets(request)
    assert CANARY not in json.dumps(redacted)
    assert redacted["url"] == "https://site.test/start"
    assert redacted["crawl"]["urls"] == ["https://site.test/a", "https://site.test/b"]
    assert redacted["auth"] == {"cookies": "***", "headers": "***", "storageState": "***", "login": "***"}
    assert redacted["level"] == "AA" and redacted["crawl"]["enabled"] is True
    assert json.dumps(request) == kept, "the caller's request is left as it was"
    assert merge_secrets(redacted, secrets) == request
    assert json.loads(json.dumps(secrets)) == secrets, "the secrets are stored as JSON"


def test_a_request_without_secrets_has_none_to_keep():
    request = {"url": "https://site.test/", "crawl": {"urls": ["https://site.test/x"]}, "auth": None}
    redacted, secrets = split_secrets(request)
    assert (redacted, secrets) == (request, {})
    assert merge_secrets(redacted, secrets) == request
    assert split_secrets({"url": "https://site.test/", "auth": "token"})[0]["auth"] == "***"
    partly = {"url": "https://site.test/", "auth": {"cookies": [], "headers": {"X": CANARY}, "login": None}}
    assert split_secrets(partly)[0]["auth"] == {"cookies": [], "headers": "***", "login": None}


def test_the_public_request_is_a_valid_request_without_secrets():
    redacted, _ = split_secrets(given())
    public = JobRequest.model_validate(public_request(redacted))
    assert CANARY not in public.model_dump_json()
    assert public.url == "https://site.test/start"


def test_pages_are_loaded_with_the_credentials_given_for_their_site():
    given_urls = ["https://site.test/", f"https://bob:{CANARY}@site.test/b", "https://carol:pw@other.test/"]
    assert with_credentials("https://site.test/deep?q=1", given_urls) == f"https://bob:{CANARY}@site.test/deep?q=1"
    assert with_credentials("https://other.test:443/x", given_urls) == "https://carol:pw@other.test:443/x"
    assert with_credentials("http://site.test/", given_urls) == "http://site.test/", "another origin"
    assert with_credentials("https://third.test/", given_urls) == "https://third.test/"
    assert with_credentials("https://site.test/", ["https://site.test/"]) == "https://site.test/"
