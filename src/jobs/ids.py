"""Names for runs and keys for pages.

A run id must sort by creation time (lists and the store's newest-first order rely on it),
travel in a URL path unescaped, and never collide between machines that create runs at the
same moment without talking to each other. A page key must be the same string for every
spelling of one page, because the store's idempotent result write and the frontier's
"seen" check are both keyed by it.
"""

from __future__ import annotations

import re
import secrets
import threading
import time
from urllib.parse import urlsplit, urlunsplit

from audit.crawl import normalize_url

_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"  # Crockford's base32, lower case: no i l o u
_ID_LENGTH = 26  # 130 bits of room for 48 bits of milliseconds and 80 random bits
_RANDOM_BITS = 80

#: What every run id matches (as a regular expression, e.g. for an OpenAPI path parameter).
RUN_ID_PATTERN = f"^[{_ALPHABET}]{{{_ID_LENGTH}}}$"
_RUN_ID = re.compile(RUN_ID_PATTERN)

_last_lock = threading.Lock()
_last_ms = 0
_last_random = 0


def new_run_id() -> str:
    """A 26-character id: Unix milliseconds (48 bits) then 80 random bits, in lower-case
    Crockford base32, so ids compare as strings in creation order to the millisecond.

    Within one process ids never go backwards: a second id in the same millisecond (or after
    the clock stepped back) reuses the last time and adds one to the random part, so ids made
    one after another by a process sort in the order they were made. Across machines the 80
    random bits make a collision within one millisecond negligible.
    """
    global _last_ms, _last_random
    with _last_lock:
        now_ms = time.time_ns() // 1_000_000
        if now_ms > _last_ms:
            _last_ms, _last_random = now_ms, secrets.randbits(_RANDOM_BITS)
        else:
            _last_random += 1  # a carry past 80 bits moves on to the next millisecond
        value = (_last_ms << _RANDOM_BITS) + _last_random
    digits = []
    for _ in range(_ID_LENGTH):
        value, digit = divmod(value, 32)
        digits.append(_ALPHABET[digit])
    return "".join(reversed(digits))


def is_run_id(text: str) -> bool:
    """Whether ``text`` could name a run: anything else is known not to, without a lookup."""
    return _RUN_ID.fullmatch(text) is not None


def url_key(url: str) -> str:
    """The key of a page within a run; raises ``ValueError`` for anything but absolute
    http(s) URLs.

    It is the crawler's own normalisation (:func:`audit.crawl.normalize_url`), so the
    synchronous crawl and the job frontier agree on what "the same page" means. Exactly:
    - the scheme and the host are lower-cased;
    - the default port (80 for http, 443 for https) is dropped, any other port kept;
    - the fragment is dropped;
    - an empty path becomes ``/``;
    - IPv6 hosts keep their brackets; userinfo (``user:pass@``) is dropped;
    - everything else is kept as written: the path's case, percent-escapes, dot segments and
      trailing slash, and the query string (order and empty values included).
    """
    normal = normalize_url(url)
    if normal is None:
        raise ValueError(f"not an absolute http(s) URL: {url!r}")
    return normal


def site_of(url: str) -> str:
    """The origin of a URL as ``scheme://host[:port]``, normalised like :func:`url_key`."""
    parts = urlsplit(url_key(url))
    return urlunsplit((parts.scheme, parts.netloc, "", "", ""))


def redirect_key(key: str, final_url: str | None) -> str | None:
    """The key of the page a page ended at, when that is another page than ``key`` (it
    redirected): the crawl counts it as seen. None when it did not, or when the final URL is
    unknown or not http(s)."""
    final = normalize_url(final_url) if final_url else None
    return None if final == key else final
