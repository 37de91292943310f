"""Fingerprints: the name a problem keeps across runs, so two runs can be compared.

A fingerprint is the first 16 hex digits of a SHA-256 over (algorithm version, rule id,
normalized page URL, element identity, occurrence). The element identity is what the page
says about the element, gathered while the page is open (``js/element_identity.js``, see
:mod:`audit.element_identity`): tag, accessible role and name, associated label text, its
own text, the stable attributes (``id`` unless it looks generated, ``name``, ``href``,
``src``, ``data-testid``, ``type``, ``for``, ``aria-label``), the chain of landmark
ancestors (role and author-given name) and, inside a frame, the frame's document URL. CSS
selectors, class names and positions are never part of it, so class renames, nth-child
shifts and elements inserted elsewhere leave it alone. When an element cannot be looked up
the identity falls back to its tag and its opening tag without ``class`` attributes.

Elements of one page that are identical by all of that for one rule are told apart by their
occurrence among the identical ones, in document order. Everything here is pure.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any, Protocol
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from .crawl import normalize_url
from .generated_names import looks_generated
from .page_audit import PageAudit

ALGORITHM = "a11y-fp/1"
FINGERPRINT_LENGTH = 16
#: The ``partialFingerprints`` key of SARIF results.
SARIF_KEY = "a11yFingerprint/v1"
#: Items found at the default viewport have the fingerprint of an audit that named none.
DEFAULT_VIEWPORT = "desktop"

Identity = dict[str, Any]

_CLASS_ATTR = re.compile(r"""\s+class\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+)""", re.IGNORECASE)
# Attributes whose values are ids: only stable when the id is.
_ID_VALUED = ("id", "for")


class Fingerprinted(Protocol):
    """What a finding, needs-review or best-practice item offers to be fingerprinted."""

    rule_id: str
    page_url: str
    element: str
    html: str
    selector: str
    fingerprint: str


def normalize_page_url(url: str) -> str:
    """The page part of a fingerprint: scheme and host lower-case, default port, userinfo
    and fragment dropped, an empty path as ``/`` and any other without its trailing slash,
    the query kept with its parameters sorted. A URL that is not http(s) is kept as is."""
    normal = normalize_url(url)
    if normal is None:
        return url
    parts = urlsplit(normal)
    path = parts.path.rstrip("/") or "/"
    query = urlencode(sorted(parse_qsl(parts.query, keep_blank_values=True)))
    return urlunsplit((parts.scheme, parts.netloc, path, query, ""))


def element_identity(raw: Mapping[str, Any], *, in_frame: bool = False) -> Identity:
    """The identity of an element as ``element_identity.js`` described it: generated ids
    dropped, empty parts left out, the frame's document URL kept only inside a frame."""
    attrs = {
        name: str(value)
        for name, value in sorted(dict(raw.get("attrs") or {}).items())
        if value and not (name in _ID_VALUED and looks_generated(str(value)))
    }
    identity: Identity = {
        "tag": str(raw.get("tag") or ""),
        "role": str(raw.get("role") or ""),
        "name": str(raw.get("name") or ""),
        "label": str(raw.get("label") or ""),
        "text": str(raw.get("text") or ""),
        "attrs": attrs,
        "landmarks": [[str(role), str(name)] for role, name in raw.get("landmarks") or []],
    }
    if in_frame and raw.get("documentUrl"):
        identity["frame"] = normalize_page_url(str(raw["documentUrl"]))
    return {key: value for key, value in identity.items() if value}


def fallback_identity(element: str, html: str) -> Identity:
    """The selector-free identity of an element that could not be looked up."""
    return {"tag": element, "html": _CLASS_ATTR.sub("", html)}


def fingerprint(
    rule_id: str, page_url: str, identity: Identity, occurrence: int = 0, viewport: str | None = None
) -> str:
    """The fingerprint of the ``occurrence``-th (from 0) element of this identity on the page
    failing ``rule_id``; at a viewport other than the default (desktop) one, that too."""
    where = [] if viewport in (None, DEFAULT_VIEWPORT) else [viewport]
    material = json.dumps(
        [ALGORITHM, rule_id, normalize_page_url(page_url), identity, occurrence, *where],
        sort_keys=True, ensure_ascii=False, separators=(",", ":"),
    )
    return hashlib.sha256(material.encode("utf-8")).hexdigest()[:FINGERPRINT_LENGTH]


def assign_fingerprints(
    items: Iterable[Fingerprinted], identities: Mapping[str, Identity | None]
) -> None:
    """Give each item (one page's list, in document order) its fingerprint, looking its
    element up in ``identities`` by selector (an identity already made by
    :func:`element_identity`); duplicates are numbered by occurrence."""
    seen: Counter[tuple[str, str | None, str]] = Counter()
    for item in items:
        identity = identities.get(item.selector) or fallback_identity(item.element, item.html)
        viewport = getattr(item, "viewport", None)
        key = (item.rule_id, viewport, json.dumps(identity, sort_keys=True))
        item.fingerprint = fingerprint(item.rule_id, item.page_url, identity, seen[key], viewport)
        seen[key] += 1


def fingerprint_page(audit: PageAudit, identities: Mapping[str, Identity | None]) -> None:
    """Fingerprint every item of one audited page (each list numbers its duplicates alone)."""
    for items in (audit.findings, audit.needs_review, audit.best_practices):
        assign_fingerprints(items, identities)


def selector_free_fingerprint(rule_id: str, page_url: str, element: str, html: str) -> str:
    """The fingerprint of an item reported after its page closed (the LLM review's own)."""
    return fingerprint(rule_id, page_url, fallback_identity(element, html))
