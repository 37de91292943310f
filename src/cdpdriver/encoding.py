"""The JSON text of the commands sent to the browser.

Some parameters are large and sent again and again: an audit sends the same 700 KB script
(axe-core and its checks) to every page it audits, and JSON-encoding it, escapes included,
costs about 3 ms of this process's CPU each time. So a string parameter of ``LARGE`` characters
or more is encoded once and its JSON text kept (the ``KEPT`` most recent such strings); the
message around it is encoded as usual with a marker in its place, which the kept text then
replaces. The text sent is exactly what ``json.dumps`` of the whole message would give.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any

#: Strings at least this long are worth keeping encoded.
LARGE = 64 * 1024
#: How many encoded strings are kept (the least recently sent goes first).
KEPT = 4

_kept: OrderedDict[str, str] = OrderedDict()


def encode_message(message: dict[str, Any]) -> str:
    """``json.dumps(message)``, with large string parameters encoded once (module docstring)."""
    params = message.get("params")
    if not params or not any(isinstance(v, str) and len(v) >= LARGE for v in params.values()):
        return json.dumps(message)
    swapped: dict[str, str] = {}
    marked = dict(params)
    for key, value in params.items():
        if isinstance(value, str) and len(value) >= LARGE:
            marker = f"\x00cdpdriver-large-{len(swapped)}\x00"
            swapped[json.dumps(marker)] = _encoded(value)
            marked[key] = marker
    text = json.dumps({**message, "params": marked})
    if any(text.count(marker) != 1 for marker in swapped):  # a parameter held a marker's text
        return json.dumps(message)
    for marker, encoded in swapped.items():
        text = text.replace(marker, encoded, 1)
    return text


def _encoded(value: str) -> str:
    """The JSON text of ``value``, kept for the next message that carries it."""
    encoded = _kept.get(value)
    if encoded is None:
        encoded = _kept[value] = json.dumps(value)
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    else:
        _kept.move_to_end(value)
    return encoded
