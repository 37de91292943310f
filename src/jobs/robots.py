"""robots.txt for the ``a11y`` user agent: read once per origin, asked per page.

Parsing and matching are the standard library's (:mod:`urllib.robotparser`; it applies
the first matching rule of the group, not RFC 9309's longest match). What an unreadable
robots.txt means follows RFC 9309 §2.3.1: a 4xx answer ("unavailable") allows everything;
a 5xx answer or no answer at all ("unreachable") disallows everything.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.robotparser import RobotFileParser

from .fetch import FetchFailed, fetch

ROBOTS_AGENT = "a11y"
MAX_ROBOTS_BYTES = 512 * 1024
"""Larger files are unreachable for us (RFC 9309 asks crawlers to read at least 500 KiB)."""


@dataclass(frozen=True)
class RobotsRules:
    parser: RobotFileParser
    sitemaps: list[str] = field(default_factory=list)
    why: str = "robots.txt"

    def allows(self, url: str) -> bool:
        return self.parser.can_fetch(ROBOTS_AGENT, url)


def parse_robots(text: str) -> RobotsRules:
    parser = RobotFileParser()
    parser.parse(text.splitlines())
    return RobotsRules(parser, list(parser.site_maps() or []))


def everything(allowed: bool, why: str) -> RobotsRules:
    parser = RobotFileParser()
    parser.allow_all, parser.disallow_all = allowed, not allowed
    return RobotsRules(parser, why=why)


async def read_robots(origin: str, *, block_private: bool) -> RobotsRules:
    """The rules of ``origin`` (``scheme://host[:port]``), never raising."""
    url = f"{origin}/robots.txt"
    try:
        fetched = await fetch(url, max_bytes=MAX_ROBOTS_BYTES, block_private=block_private)
    except FetchFailed as exc:
        return everything(False, f"{url} is unreachable ({exc})")
    if 400 <= fetched.status < 500:
        return everything(True, f"{url} answered {fetched.status}")
    if fetched.status >= 300:
        return everything(False, f"{url} is unreachable (HTTP {fetched.status})")
    return parse_robots(fetched.body.decode("utf-8", errors="replace"))
