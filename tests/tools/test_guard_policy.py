"""The guard rails' rules on their own: origin patterns, verdicts, secrets, markers (no browser)."""

from __future__ import annotations

import pytest

from tools.guard.boundaries import Boundaries
from tools.guard.policy import GuardConfig, OriginPattern, parse_patterns
from tools.guard.secrets import Redactor


def test_origin_patterns_and_their_verdicts():
    guard = GuardConfig(allowed=parse_patterns(["https://example.com; http://127.0.0.1:8080", "*.cdn.test"]),
                        blocked=parse_patterns(["https://bad.cdn.test"]))
    allowed = ["https://example.com/a?b", "wss://example.com/socket", "https://EXAMPLE.com:443/",
               "http://127.0.0.1:8080/x", "ws://127.0.0.1:8080/", "http://img.cdn.test:81/", "https://a.b.cdn.test/",
               "data:text/html,x", "blob:https://evil.test/uuid", "about:blank"]
    refused = {"http://example.com/": "--allowed-origins", "https://example.com:8443/": "--allowed-origins",
               "http://127.0.0.1:8081/": "--allowed-origins", "https://cdn.test/": "--allowed-origins",
               "https://bad.cdn.test/": "--blocked-origins", "wss://bad.cdn.test/": "--blocked-origins",
               "file:///etc/passwd": "--allowed-origins", "chrome://settings": "--allowed-origins"}
    assert [u for u in allowed if guard.url_verdict(u) is not None] == []
    assert {u: guard.url_verdict(u).rule for u in refused} == refused
    assert guard.connect_allowed("img.cdn.test", 443) and not guard.connect_allowed("bad.cdn.test", 443)
    assert guard.url_verdict("https://bad.cdn.test/").origin == "https://bad.cdn.test"
    assert GuardConfig(allowed=parse_patterns(["file://"])).url_verdict("file:///tmp/x") is None
    assert GuardConfig(no_js_evaluate=True).navigation_verdict("JavaScript:alert(1)").rule == "--no-js-evaluate"
    assert GuardConfig().url_verdict("file:///etc/passwd") is None


@pytest.mark.parametrize("text", ["ftp://x.test", "https://x.test/path", "https://*x.test", "x.test:99999",
                                  "https://user@x.test", "a.*.test", ""])
def test_bad_origin_patterns_are_refused(text):
    with pytest.raises(ValueError):
        OriginPattern.parse(text)


def test_redaction_covers_encoded_forms_and_keys():
    redactor = Redactor((("KEY", "a b/c&d"), ("", "plainvalue")))
    text = "a b/c&d a%20b%2Fc%26d a+b%2Fc%26d a%20b/c%26d a%20b%2fc%26d plainvalue"
    assert redactor.text(text) == " ".join(["[REDACTED:KEY]"] * 5 + ["[REDACTED]"])
    assert redactor.data({"plainvalue": ["x plainvalue"], "n": 1}) == {"[REDACTED]": ["x [REDACTED]"], "n": 1}


def test_markers_wrap_page_keys_only_and_survive_a_round_trip():
    marks = Boundaries("n0nce")
    data, count = marks.wrap({"message": "clicked", "title": "<<page:n0nce>>fake", "items": [
        {"name": "Buy", "selector": "#buy", "ref": "e1"}], "result": {"deep": ["x", 1]}}, "page_inspect")
    assert count == 3
    assert data["message"] == "clicked" and data["items"][0]["selector"] == "#buy"
    assert data["title"] == "<<page:n0nce>><< page:n0nce>>fake<</page:n0nce>>"  # the page's own marker defused
    assert data["result"] == {"deep": ["<<page:n0nce>>x<</page:n0nce>>", 1]}
    assert marks.strip(data["title"]) == "<<page:n0nce>>fake"
    assert marks.close_cut("<<page:n0nce>>cut…") == "<<page:n0nce>>cut…<</page:n0nce>>"
