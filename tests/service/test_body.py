"""Nesting is measured before parsing; strings that look like brackets do not count."""

from __future__ import annotations

import pytest

from a11y.service.body import MAX_DEPTH, InvalidJson, nesting_depth, parse_json_body


def test_depth_counts_only_structure():
    assert nesting_depth(b'{"a": [1, {"b": "[[[[{{{{"}]}') == 3
    assert nesting_depth(b'"\\"[[[["') == 0
    assert nesting_depth(b"[" * 10_000) == MAX_DEPTH + 1  # stops counting past the limit


def test_body_at_the_limit_parses():
    value = parse_json_body(b"[" * MAX_DEPTH + b"]" * MAX_DEPTH)
    for _ in range(MAX_DEPTH - 1):
        value = value[0]
    assert value == []


@pytest.mark.parametrize("raw", [b"[" * 5000, b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1)])
def test_too_deep_is_invalid_json(raw):
    with pytest.raises(InvalidJson, match="nested deeper"):
        parse_json_body(raw)
