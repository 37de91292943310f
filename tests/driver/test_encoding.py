"""The JSON text of commands (:mod:`cdpdriver.encoding`): large strings encoded once, same text."""

from __future__ import annotations

import json

from cdpdriver import encoding
from cdpdriver.encoding import LARGE, encode_message


def test_a_message_encodes_exactly_as_json_dumps_with_large_strings_kept():
    script = "const x = \"é\\n\";\t" * (LARGE // 8)
    message = {"id": 7, "method": "Runtime.evaluate", "params": {"expression": script, "contextId": 3},
               "sessionId": "S"}
    assert encode_message(message) == json.dumps(message)
    assert encoding._kept[script] == json.dumps(script)
    again = {**message, "id": 8}
    assert encode_message(again) == json.dumps(again)
    small = {"id": 9, "method": "Page.navigate", "params": {"url": "https://example.test/"}}
    assert encode_message(small) == json.dumps(small)


def test_only_the_most_recent_large_strings_are_kept():
    for n in range(encoding.KEPT + 2):
        value = str(n) * LARGE
        assert encode_message({"id": n, "method": "M", "params": {"a": value}}) == json.dumps(
            {"id": n, "method": "M", "params": {"a": value}}
        )
    assert len(encoding._kept) == encoding.KEPT
    assert "0" * LARGE not in encoding._kept


def test_a_parameter_that_holds_the_markers_text_is_still_encoded_right():
    message = {"id": 1, "method": "M", "params": {"a": "\x00cdpdriver-large-0\x00", "b": "x" * LARGE}}
    assert encode_message(message) == json.dumps(message)
