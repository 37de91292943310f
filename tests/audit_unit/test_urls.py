from __future__ import annotations

import pytest

from audit.urls import without_credentials


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("http://user:secret@example.org/a?b#c", "http://example.org/a?b#c"),
        ("https://secret@example.org:8443/", "https://example.org:8443/"),
        ("http://a:b@c@example.org/", "http://example.org/"),
        ("http://example.org/p@th", "http://example.org/p@th"),
        ("http://user:secret@[::1/", "http://[::1/"),
        ("not a url", "not a url"),
    ],
)
def test_credentials_are_removed(url, shown):
    assert without_credentials(url) == shown
    assert "secret" not in without_credentials(url)


def test_scrub_credentials_in_nested_values():
    from audit.urls import scrub_credentials

    value = {"m": "Could not load http://u:p@h/x and https://t@h2/", "d": [{"url": "ws://a:b@c/"}], "n": 3}
    assert scrub_credentials(value) == {"m": "Could not load http://h/x and https://h2/",
                                        "d": [{"url": "ws://c/"}], "n": 3}
