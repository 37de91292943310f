"""Run ids (time-sortable, URL-safe, unique) and page keys (the crawler's normalisation)."""

from __future__ import annotations

import re
import time

import pytest

from jobs.ids import new_run_id, site_of, url_key

RUN_ID = re.compile(r"^[0-9a-hjkmnp-tv-z]{26}$")


def test_run_ids_are_url_safe_unique_and_sort_in_creation_order():
    made = [new_run_id() for _ in range(2000)]
    assert all(RUN_ID.match(run_id) for run_id in made)
    assert len(set(made)) == len(made)
    assert sorted(made) == made, "ids made one after another sort in that order"


def test_run_ids_sort_by_time_across_milliseconds():
    earlier = new_run_id()
    time.sleep(0.003)
    later = new_run_id()
    assert earlier < later
    assert earlier[:10] < later[:10], "the first ten characters are the millisecond"


def test_run_ids_carry_the_time_they_were_made():
    before_ms = time.time_ns() // 1_000_000
    run_id = new_run_id()
    after_ms = time.time_ns() // 1_000_000
    value = 0
    for char in run_id:
        value = value * 32 + "0123456789abcdefghjkmnpqrstvwxyz".index(char)
    assert before_ms <= value >> 80 <= after_ms


@pytest.mark.parametrize(
    ("url", "key"),
    [
        ("HTTPS://Example.COM/Path", "https://example.com/Path"),
        ("http://example.com:80/a", "http://example.com/a"),
        ("https://example.com:443/a", "https://example.com/a"),
        ("https://example.com:8443/a", "https://example.com:8443/a"),
        ("http://example.com:443/a", "http://example.com:443/a"),
        ("https://example.com/a#section", "https://example.com/a"),
        ("https://example.com", "https://example.com/"),
        ("https://example.com?q=1", "https://example.com/?q=1"),
        ("https://example.com/a?b=2&a=1&c=", "https://example.com/a?b=2&a=1&c="),
        ("https://example.com/a/", "https://example.com/a/"),
        ("https://example.com/a/../b/%7Ex", "https://example.com/a/../b/%7Ex"),
        ("https://user:pw@example.com/", "https://example.com/"),
        ("http://[::1]:8080/x", "http://[::1]:8080/x"),
    ],
)
def test_url_keys_normalise_exactly_what_the_docstring_says(url, key):
    assert url_key(url) == key
    assert url_key(key) == key, "a key is its own key"


@pytest.mark.parametrize(
    "url", ["mailto:a@example.com", "ftp://example.com/", "/relative/path", "https://", "http://h:x/"]
)
def test_only_absolute_http_urls_have_a_key(url):
    with pytest.raises(ValueError):
        url_key(url)


def test_the_site_is_the_normalised_origin():
    assert site_of("HTTPS://Example.com:443/a/b?c#d") == "https://example.com"
    assert site_of("http://example.com:8080") == "http://example.com:8080"
