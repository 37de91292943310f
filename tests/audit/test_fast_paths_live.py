"""The engine's optimisations never change what an audit finds (issue #13).

Every page below is audited on the plain path (every option of ``OPTIMISATIONS`` off: a fresh
context per page, level-by-level crawl) and on the fast paths (the service's defaults; the
CLI's private browser), and the results must be equal in everything but the duration:
findings, needs-review items, best practices, scores, conformance, pages, their order,
untested frames and dialogs.
"""

from __future__ import annotations

from typing import Any

import pytest

from audit.engine import OPTIMISATIONS, EngineLimits, run_audit
from audit.models import AuditResult
from cdpdriver import launch
from tests.audit.support import make_request
from tests.support.site import Response

BASE = {"navigation_timeout": 20, "audit_timeout": 120, "concurrency": 3}
PLAIN = EngineLimits(**BASE, **dict.fromkeys(OPTIMISATIONS, False))
SERVICE = EngineLimits(**BASE)
PRIVATE = EngineLimits(**BASE, private_browser=True)

HEAD = "<!doctype html><html lang=en><title>{0}</title><main><h1>{0}</h1>"
#: The optimisations concern loading and the static pass; the interaction phase is held to its
#: own tests (what it reaches within its time budget may depend on the machine's load).
STATIC = {"checks": {"interaction": False}}


def build_pages(site) -> dict[str, str]:
    """Name -> URL: the audit fixtures and generated pages with frames, shadow DOM, content
    rendered after load, dialogs; each links to the hub, and the hub to each."""
    pages = {name: site.url(f"/audit/{name}.html") for name in ("violations", "clean", "levels")}
    inner = site.route("/same/inner.html", HEAD.format("inner") + "<img src=/audit/pixel.png>")
    oop = site.cross_site_url("/same/oop.html")
    site.route("/same/oop.html", HEAD.format("oop") + "<button></button><input>")
    site.route("/same/data.json", Response('{"n": 3}', content_type="application/json", delay=0.2))
    generated = {
        "frames": f"<iframe title=same src='{inner}'></iframe><iframe title=remote src='{oop}'></iframe>"
                  "<iframe title=inline srcdoc='<html><title>s</title><a href=#></a>'></iframe>",
        "shadow": "<div id=host></div><script>document.getElementById('host').attachShadow({mode: 'open'})"
                  ".innerHTML = '<button id=inside></button><img src=/audit/pixel.png>';</script>",
        "spa": "<div id=app>loading</div><script>addEventListener('load', () => setTimeout(() => "
               "fetch('/same/data.json').then(r => r.json()).then(d => { document.getElementById('app')"
               ".innerHTML = '<ul>' + '<li><img src=/audit/pixel.png></li>'.repeat(d.n) + '</ul>"
               "<p style=\"color:#ccc\">faint</p>'; }), 100));</script>",
        "dialogs": "<script>alert('hello'); addEventListener('load', () => confirm('sure?'))</script><p>x</p>",
    }
    for name, body in generated.items():
        pages[name] = site.route(f"/same/{name}.html", HEAD.format(name) + body + "<a href='/same/hub.html'>hub</a>")
    hub = "".join(f"<p><a href='{url}'>{name}</a></p>" for name, url in pages.items())
    pages["hub"] = site.route("/same/hub.html", HEAD.format("hub") + hub + "<a href='/missing'>gone</a>")
    return pages


def comparable(result: AuditResult) -> dict[str, Any]:
    return result.model_dump(exclude={"duration_ms"})


CASES = [
    ("violations", {}),
    ("clean", {}),
    ("levels", {"level": "AAA", "bestPractices": True}),
    ("levels", {"version": "2.0", "level": "A"}),
    ("frames", {}),
    ("shadow", {"bestPractices": True}),
    ("spa", {}),
    ("dialogs", {}),
]


async def test_single_pages_find_the_same_on_every_path(browser, site):
    pages = build_pages(site)
    async with launch() as own:  # the CLI's browser serves one audit; here it serves them all
        for name, fields in CASES:
            request = make_request(pages[name], **STATIC, **fields)
            plain = comparable(await run_audit(browser, request, PLAIN))
            assert plain["pages"][0]["status"] == "ok", (name, plain["pages"])
            assert comparable(await run_audit(browser, request, SERVICE)) == plain, name
            assert comparable(await run_audit(own, request, PRIVATE)) == plain, name


@pytest.mark.parametrize("max_pages", [50, 4])
async def test_crawls_find_the_same_pages_in_the_same_order(browser, site, max_pages):
    hub = build_pages(site)["hub"]
    request = make_request(hub, **STATIC, crawl={"enabled": True, "depth": 2, "maxPages": max_pages})
    plain = comparable(await run_audit(browser, request, PLAIN))
    assert len(plain["pages"]) == min(max_pages, 9)  # the hub, its 7 pages and a broken link
    assert comparable(await run_audit(browser, request, SERVICE)) == plain
    async with launch() as own:
        assert comparable(await run_audit(own, request, PRIVATE)) == plain


async def test_a_frame_inside_a_shadow_root_is_still_audited(browser, site):
    """A page is audited in place only when neither it nor an open shadow root in it holds
    a frame; a frame that only the shadow tree holds is still found and audited."""
    inner = site.route("/same/shadow-inner.html", HEAD.format("inner") + "<img src=/audit/pixel.png>")
    url = site.route(
        "/same/shadow-frame.html",
        HEAD.format("outer") + "<div id=host></div><script>document.getElementById('host')"
        f".attachShadow({{mode: 'open'}}).innerHTML = \"<iframe title=in src='{inner}'></iframe>\";</script>",
    )
    for limits in (PLAIN, SERVICE):
        result = await run_audit(browser, make_request(url), limits)
        assert [f.rule_id for f in result.findings] == ["image-alt"]
        assert result.findings[0].selector.count(" >>> ") == 2, result.findings[0].selector
