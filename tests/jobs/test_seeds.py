"""robots.txt and sitemaps read from a real local server (no browser)."""

from __future__ import annotations

import gzip

import pytest

from jobs.robots import read_robots
from jobs.seeds import SiteSeeds
from jobs.sitemaps import MAX_XML_BYTES, SitemapRefused, parse_sitemap
from tests.support.site import Response, Site


def urlset(*urls: str) -> str:
    locs = "".join(f"<url><loc>{u}</loc><priority>0.5</priority></url>" for u in urls)
    return f'<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{locs}</urlset>'


def index(*urls: str) -> str:
    locs = "".join(f"<sitemap><loc>{u}</loc></sitemap>" for u in urls)
    return f'<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{locs}</sitemapindex>'


@pytest.fixture
def own_site():
    """A server of the test's own: robots.txt and /sitemap.xml are per origin."""
    server = Site().start()
    yield server
    server.stop()


async def test_sitemaps_named_by_robots_with_an_index_and_gzip(own_site):
    s = own_site
    s.route("/robots.txt", Response(f"User-agent: *\nDisallow:\nSitemap: {s.url('/maps/index.xml')}\n", content_type="text/plain"))
    s.route("/maps/index.xml", Response(index(s.url("/maps/a.xml"), s.url("/maps/b.xml.gz")), content_type="application/xml"))
    s.route("/maps/a.xml", Response(urlset(s.url("/p/1"), s.url("/p/2") + "?x=1&amp;y=2"), content_type="application/xml"))
    s.route("/maps/b.xml.gz", Response(gzip.compress(urlset(s.url("/p/3")).encode()), content_type="application/gzip"))
    seeds = SiteSeeds(block_private=False)
    found = await seeds.sitemap_urls(s.url("").rstrip("/"), limit=100)
    assert found == [s.url("/p/1"), s.url("/p/2") + "?x=1&y=2", s.url("/p/3")]
    assert await seeds.sitemap_urls(s.url("").rstrip("/"), limit=2) == found[:2]


async def test_without_robots_the_sitemap_is_sitemap_xml(own_site):
    own_site.route("/sitemap.xml", Response(urlset(own_site.url("/only")), content_type="text/xml"))
    found = await SiteSeeds(block_private=False).sitemap_urls(own_site.url("").rstrip("/"), limit=10)
    assert found == [own_site.url("/only")]


async def test_robots_rules_for_the_a11y_agent_and_unreadable_files(own_site):
    s = own_site
    origin = s.url("").rstrip("/")
    s.route("/robots.txt", Response("User-agent: a11y\nDisallow: /private/\n\nUser-agent: *\nDisallow: /\n", content_type="text/plain"))
    rules = await read_robots(origin, block_private=False)
    assert rules.allows(s.url("/public")) and not rules.allows(s.url("/private/x"))
    s.route("/robots.txt", Response("gone", status=404))
    assert (await read_robots(origin, block_private=False)).allows(s.url("/private/x"))  # unavailable
    s.route("/robots.txt", Response("down", status=503))
    assert not (await read_robots(origin, block_private=False)).allows(s.url("/public"))  # unreachable


async def test_with_private_networks_blocked_a_loopback_robots_txt_is_not_read(own_site):
    own_site.route("/robots.txt", Response("User-agent: *\nDisallow:\n", content_type="text/plain"))
    rules = await read_robots(own_site.url("").rstrip("/"), block_private=True)
    assert not rules.allows(own_site.url("/"))
    assert "loopback" in rules.why
    assert not any(r.path == "/robots.txt" for r in own_site.log)


def test_sitemaps_with_a_doctype_or_too_much_gzip_are_refused():
    entity = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><urlset><url><loc>&a;</loc></url></urlset>'
    with pytest.raises(SitemapRefused, match="DOCTYPE"):
        parse_sitemap(entity.encode())
    bomb = gzip.compress(b"<urlset>" + b" " * (MAX_XML_BYTES + 10) + b"</urlset>", compresslevel=1)
    with pytest.raises(SitemapRefused, match="decompressed"):
        parse_sitemap(bomb)
    with pytest.raises(SitemapRefused, match="root element"):
        parse_sitemap(b"<html><loc>x</loc></html>")
    with pytest.raises(SitemapRefused, match="well-formed"):
        parse_sitemap(b"<urlset><url>")
