"""Whether a name (an id, a class) was written by a person or made by a framework or a
build; names of the second kind change between builds, so neither fingerprints nor
problems may depend on them. Pure, and free of other imports so both can use it."""

from __future__ import annotations

import re

_DIGIT_RUN = re.compile(r"\d{3,}")
# Letters and digits interleaved inside one word (``a8f3d2``, ``1q2w3e``): a hash, not a name.
_INTERLEAVED = re.compile(r"[a-z]+\d+[a-z]|\d+[a-z]+\d", re.IGNORECASE)
_UUID = re.compile(
    r"[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}", re.IGNORECASE
)


def looks_generated(value: str) -> bool:
    """Whether an id reads as made by a framework or a build (``:r1:``, ``ember123``,
    ``css-1q2w3e``, a UUID, mostly digits) rather than written by a person."""
    if not value or ":" in value or _DIGIT_RUN.search(value) or _UUID.search(value):
        return True
    digits = sum(ch.isdigit() for ch in value)
    if digits >= 2 and digits * 10 > len(value) * 3:
        return True
    return any(_INTERLEAVED.search(word) for word in re.split(r"[-_.]", value))
