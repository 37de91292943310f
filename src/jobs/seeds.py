"""What a site says about crawling it: its robots.txt rules and its sitemaps' URLs.

One ``SiteSeeds`` per process caches each origin's robots.txt for ``ttl`` seconds (a run
asks for every page it admits), reading it once even when many tasks ask at the same time.
Sitemaps are read when a run asks (once per run: their URLs join its depth 1).
"""

from __future__ import annotations

import trio

from .robots import RobotsRules, read_robots
from .sitemaps import sitemap_urls

ROBOTS_TTL = 3600.0


class SiteSeeds:
    def __init__(self, *, block_private: bool, ttl: float = ROBOTS_TTL) -> None:
        self._block_private = block_private
        self._ttl = ttl
        self._rules: dict[str, tuple[float, RobotsRules]] = {}
        self._locks: dict[str, trio.Lock] = {}

    async def robots(self, origin: str) -> RobotsRules:
        """The robots.txt rules of ``origin`` (``scheme://host[:port]``)."""
        lock = self._locks.setdefault(origin, trio.Lock())
        async with lock:
            cached = self._rules.get(origin)
            if cached is not None and trio.current_time() - cached[0] < self._ttl:
                return cached[1]
            rules = await read_robots(origin, block_private=self._block_private)
            self._rules[origin] = (trio.current_time(), rules)
            return rules

    async def sitemap_urls(self, origin: str, limit: int) -> list[str]:
        """Up to ``limit`` page URLs from the sitemaps robots.txt names, else from
        ``/sitemap.xml``."""
        rules = await self.robots(origin)
        starts = rules.sitemaps or [f"{origin}/sitemap.xml"]
        return await sitemap_urls(starts, limit=limit, block_private=self._block_private)
