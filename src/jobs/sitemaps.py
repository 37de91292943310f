"""Sitemap URLs of a site: sitemaps and sitemap indexes, plain or gzip, read with bounds.

Bounds against a hostile or broken site: each document is at most ``MAX_SITEMAP_BYTES`` on
the wire and ``MAX_XML_BYTES`` once decompressed (the protocol's own 50 MB limit); at most
``MAX_SITEMAPS`` documents are read, indexes are followed ``MAX_INDEX_DEPTH`` levels deep,
and reading stops once ``limit`` URLs are found. XML is parsed incrementally by the
standard library's expat, and a document with a DOCTYPE is refused outright: a sitemap has
no use for one, and without it there are no entities to expand or fetch.
"""

from __future__ import annotations

import logging
import re
import zlib
from xml.etree.ElementTree import ParseError, XMLPullParser

from .fetch import FetchFailed, fetch

MAX_SITEMAP_BYTES = 10 * 1024 * 1024
MAX_XML_BYTES = 50 * 1024 * 1024
MAX_SITEMAPS = 50
MAX_INDEX_DEPTH = 2
_CHUNK = 64 * 1024
_GZIP_MAGIC = b"\x1f\x8b"
_DOCTYPE = re.compile(rb"<!doctype", re.IGNORECASE)

log = logging.getLogger(__name__)


class SitemapRefused(Exception):
    """The document is not a sitemap we read (too large, a DOCTYPE, broken XML)."""


def parse_sitemap(data: bytes) -> tuple[str, list[str]]:
    """(``urlset`` or ``sitemapindex``, the ``<loc>`` values in document order) of a sitemap,
    gzip or plain."""
    if data.startswith(_GZIP_MAGIC):
        data = _gunzip(data)
    if _DOCTYPE.search(data):
        raise SitemapRefused("a sitemap must not have a DOCTYPE")
    parser = XMLPullParser(events=("start", "end"))
    root = ""
    locs: list[str] = []
    try:
        for start in range(0, len(data), _CHUNK):
            parser.feed(data[start : start + _CHUNK])
            for event, element in parser.read_events():
                name = element.tag.rpartition("}")[2]
                if event == "start":
                    root = root or name
                elif name == "loc" and element.text and element.text.strip():
                    locs.append(element.text.strip())
                elif name in ("url", "sitemap"):
                    element.clear()
        parser.close()
    except ParseError as exc:
        raise SitemapRefused(f"not well-formed XML: {exc}") from exc
    if root not in ("urlset", "sitemapindex"):
        raise SitemapRefused(f"the root element is <{root}>, not <urlset> or <sitemapindex>")
    return root, locs


def _gunzip(data: bytes) -> bytes:
    inflater = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
    try:
        out = inflater.decompress(data, MAX_XML_BYTES + 1)
    except zlib.error as exc:
        raise SitemapRefused(f"broken gzip: {exc}") from exc
    if len(out) > MAX_XML_BYTES:
        raise SitemapRefused(f"larger than {MAX_XML_BYTES} bytes once decompressed")
    return out


async def sitemap_urls(sitemaps: list[str], *, limit: int, block_private: bool) -> list[str]:
    """Page URLs listed by ``sitemaps`` and the sitemaps they index, depth first in document
    order, at most ``limit``. A sitemap that cannot be read is logged and passed over."""
    found: list[str] = []
    read: set[str] = set()
    stack = [(url, 0) for url in reversed(sitemaps)]
    while stack and len(found) < limit and len(read) < MAX_SITEMAPS:
        url, depth = stack.pop()
        if url in read:
            continue
        read.add(url)
        try:
            fetched = await fetch(url, max_bytes=MAX_SITEMAP_BYTES, block_private=block_private)
            if fetched.status != 200:
                raise SitemapRefused(f"HTTP {fetched.status}")
            kind, locs = parse_sitemap(fetched.body)
        except (FetchFailed, SitemapRefused) as exc:
            log.info("sitemap %s not read: %s", url, exc)
            continue
        if kind == "urlset":
            found.extend(locs[: limit - len(found)])
        elif depth < MAX_INDEX_DEPTH:
            stack.extend((child, depth + 1) for child in reversed(locs))
    return found
