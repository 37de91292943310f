"""Evidence screenshots taken by the real engine in a real Chromium: each image decodes (its
own header, read here without our code), has the size of the element's box plus the margin
times the device scale factor, shows the outline, and leaves the page as it was."""

from __future__ import annotations

import base64
import struct

from audit.engine import EngineLimits, audit_page, run_audit
from audit.reports import render
from audit.screenshots import RunScreenshots, ScreenshotIndex, ScreenshotPolicy
from cdpdriver import evaluate
from tests.audit.support import make_request, open_page
from tests.support.site import Response

FAST = dict(navigation_timeout=15, audit_timeout=60)
PIXEL = "data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw=="
MARGIN = ScreenshotPolicy().margin


def _page(site, name: str) -> str:
    """Below the fold: an empty button at a known box (120 x 40 at 100, 1500); five images
    without alt, each its own component by its class (one rule, five problems: more than the
    three shots per rule); a same-origin frame with an
    image without alt 60 x 30 at 10, 20 inside a frame at 50, 200 with no border; and a
    cross-site (out-of-process) frame whose link has no name."""
    inner = site.route(f"/{name}/inner", f'<!doctype html><html lang=en><title>i</title><body style="margin:0">'
                       f'<img src="{PIXEL}" style="position:absolute;left:10px;top:20px;width:60px;height:30px"></body>')
    site.route(f"/{name}/oop", '<!doctype html><html lang=en><title>o</title><a href="/x"></a>')
    images = "".join(f'<img class="{kind}" src="{PIXEL}" width=20 height=20>'
                     for kind in ("logo", "hero", "icon", "badge", "avatar"))
    body = (
        '<!doctype html><html lang=en><title>Shots</title><body style="margin:0">'
        '<main><h1>Shots</h1>'
        f'<iframe title="same origin" src="{inner}" style="position:absolute;left:50px;top:200px;'
        'width:300px;height:120px;border:0"></iframe>'
        f'<iframe title="other site" src="{site.cross_site_url(f"/{name}/oop")}" '
        'style="position:absolute;left:400px;top:200px;width:200px;height:80px"></iframe>'
        f'<div style="position:absolute;left:100px;top:400px">{images}</div>'
        '<button style="position:absolute;left:100px;top:1500px;width:120px;height:40px;'
        'border:0;background:#fd0"></button>'
        '<div style="height:3000px"></div></main></body></html>'
    )
    return site.route(f"/{name}/", Response(body))


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", data[:8]
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def jpeg_size(data: bytes) -> tuple[int, int]:
    """From the first start-of-frame segment, walking the segments by their lengths."""
    assert data[:2] == b"\xff\xd8"
    at = 2
    while True:
        assert data[at] == 0xFF
        marker, length = data[at + 1], struct.unpack(">H", data[at + 2:at + 4])[0]
        if 0xC0 <= marker <= 0xC3:
            height, width = struct.unpack(">HH", data[at + 5:at + 9])
            return width, height
        at += 2 + length


def size_of(shot) -> tuple[int, int]:
    return png_size(shot.data) if shot.media_type == "image/png" else jpeg_size(shot.data)


async def _pixel(page, shot, x: int, y: int) -> list[int]:
    """The RGB of a pixel of the image, decoded by the browser."""
    url = f"data:{shot.media_type};base64,{base64.b64encode(shot.data).decode()}"
    return await page.evaluate(
        "(async () => { const i = new Image(); i.src = " + repr(url) + "; await i.decode();"
        " const c = document.createElement('canvas'); c.width = i.width; c.height = i.height;"
        " const g = c.getContext('2d'); g.drawImage(i, 0, 0);"
        f" return Array.from(g.getImageData({x}, {y}, 1, 1).data).slice(0, 3); }})()",
        await_promise=True,
    )


async def test_each_finding_is_shot_in_context_and_outlined(browser, page, site):
    url = _page(site, "shots")
    shots = RunScreenshots()
    audit = await audit_page(browser, url, make_request(url), EngineLimits(**FAST, screenshots=shots))
    taken = shots.pages[url]
    by_rule: dict[str, list] = {}
    for shot in taken.shots:
        by_rule.setdefault(shot.item.rule_id, []).append(shot)

    button = by_rule["button-name"][0]
    assert button.media_type == "image/png" and button.scale == 1
    assert size_of(button) == (button.width, button.height) == (120 + 2 * MARGIN, 40 + 2 * MARGIN)
    # The outline: a 3 px border 4 px outside the element, so at 12..14 px of the image.
    red, green, blue = await _pixel(page, button, MARGIN - 3, MARGIN + 20)
    assert red > 180 and green < 60 and 60 < blue < 160, (red, green, blue)
    assert (await _pixel(page, button, MARGIN + 60, MARGIN + 20))[:2] == [255, 221]  # the element

    assert len(by_rule["image-alt"]) == 3  # five images, three shots per rule
    framed = next(s for s in by_rule["image-alt"] if " >>> " in s.item.selector)
    assert size_of(framed) == (60 + 2 * MARGIN, 30 + 2 * MARGIN)
    assert all(size_of(s) == (20 + 2 * MARGIN, 20 + 2 * MARGIN) for s in by_rule["image-alt"] if s is not framed)

    skipped = {s["ruleId"]: s["reason"] for s in taken.skipped}
    assert "cross-origin" in skipped["link-name"], taken.skipped
    thumb = taken.thumbnail
    assert thumb is not None and thumb.media_type == "image/jpeg"
    view = await page.evaluate("[innerWidth, innerHeight]")
    assert jpeg_size(thumb.data) == (thumb.width, thumb.height)
    assert thumb.width == 320 and abs(thumb.height - view[1] * 320 / view[0]) <= 1
    assert shots.spent == sum(len(s.data) for s in taken.images())

    # Stored by name and found again by the result's items (ids renumbered or not).
    names = [name for name, *_ in taken.artifacts(7)]
    assert "thumb-7.jpg" in names and f"shot-7-{button.number}.png" in names
    rows = [(name, media, meta, None) for name, media, _data, meta in taken.artifacts(7)]
    index = ScreenshotIndex.of_artifacts(rows)
    finding = next(f for f in audit.findings if f.rule_id == "button-name")
    assert index.for_item("finding", finding).name == f"shot-7-{button.number}.png"
    assert index.for_page(url).name == "thumb-7.jpg"


async def test_device_scale_budget_and_the_page_left_as_it_was(browser, page, site):
    url = _page(site, "shots-dpr")
    result = await run_audit(browser, make_request(url), EngineLimits(**FAST))
    assert result.findings
    await page.session.send("Emulation.setDeviceMetricsOverride",
                            {"width": 800, "height": 600, "deviceScaleFactor": 2, "mobile": False})
    await open_page(page, url)
    await page.evaluate("window.scrollTo(0, 700)")
    before = await page.evaluate("[scrollX, scrollY, document.querySelectorAll('*').length]")

    shots = RunScreenshots()
    taken = await shots.capture(page, url, result.findings, result.needs_review)
    button = next(s for s in taken.shots if s.item.rule_id == "button-name")
    assert button.scale == 2 and size_of(button) == (2 * (120 + 2 * MARGIN), 2 * (40 + 2 * MARGIN))
    assert taken.thumbnail is not None and taken.thumbnail.width == 320  # 800 css px, 1600 device px
    after = await page.evaluate("[scrollX, scrollY, document.querySelectorAll('*').length]")
    assert after == before  # scrolled back, outline removed

    # A budget that holds the thumbnail and one more shot: the rest are skipped, not taken.
    first = taken.thumbnail.data
    small = RunScreenshots(ScreenshotPolicy(max_bytes=len(first) + len(taken.shots[0].data) + 10))
    again = await small.capture(page, url, result.findings, result.needs_review)
    assert small.spent <= small.policy.max_bytes
    assert 1 <= len(again.shots) < len(taken.shots)
    assert any("budget" in s["reason"] for s in again.skipped)
    assert await evaluate(page.session, "document.querySelectorAll('*').length") == before[2]


async def test_the_report_with_its_evidence_passes_its_own_audit(browser, page, site):
    """A crawl's report, screenshots inline and a trend, audited by the engine: nothing at WCAG
    2.2 AA; and its script regroups and filters what a person sees."""
    for n in range(2):
        site.route(f"/shots-report/{n}", Response(
            f'<!doctype html><html><title>r{n}</title><body><main><h1>Page {n}</h1>'
            f'<img src="{PIXEL}" width=30 height=30><button></button>'
            f'<p style="color:#999">faint {n}</p><a href="/shots-report/{1 - n}">other</a></main></body></html>'))
    url = site.url("/shots-report/0")
    shots = RunScreenshots(ScreenshotPolicy(timeout=120))  # every shot, however loaded the machine
    # The pages' static findings, each with its element's shot, fill the report; the report
    # itself is then audited with everything on, the interaction phase included.
    request = make_request(url, crawl={"enabled": True, "depth": 1, "maxPages": 2}, checks={"interaction": False})
    result = await run_audit(browser, request, EngineLimits(**FAST, screenshots=shots))
    assert len(result.pages) == 2 and len(shots.pages) == 2
    history = [{"id": f"r{i}", "createdAt": f"2025-05-0{i + 1}T08:00:00Z", "status": "completed",
                "score": 50.0 + 10 * i, "pages": 2,
                "findings": {"critical": 4, "serious": 3 - i, "moderate": 0, "minor": 0, "total": 7 - i}}
               for i in range(3)]
    html = render(result, "html", screenshots=ScreenshotIndex.of_pages(shots.pages.values()), history=history)
    assert html.count("data:image/png;base64,") >= len(result.findings) and "data:image/jpeg;base64," in html
    report_url = site.route("/shots-report/report.html", Response(html))

    audited = await run_audit(browser, make_request(report_url), EngineLimits(**FAST))
    assert [(f.rule_id, f.selector) for f in audited.findings] == [], [f.failure_summary for f in audited.findings]
    assert audited.pages[0].status == "ok"

    await open_page(page, report_url)
    count = "document.querySelector('.report-count').textContent"
    total = len(result.findings)
    assert await page.evaluate(count) == f"Showing {total} of {total} findings."
    await page.evaluate("document.querySelector('input[name=group][value=page]').click()")
    headings = await page.evaluate(
        "Array.from(document.querySelectorAll('.groups-by-page h3'), h => h.textContent)")
    assert headings == [f"Page: {p.url}" for p in result.pages]
    await page.evaluate("document.querySelector('input[name=impact][value=critical]').click()")
    critical = sum(f.impact == "critical" for f in result.findings)
    assert await page.evaluate(count) == f"Showing {total - critical} of {total} findings."
    assert await page.evaluate("document.querySelectorAll('li.item:not([hidden]) img.shot-img').length") > 0


async def test_each_viewport_has_its_own_shots(browser, site):
    """At desktop and at a phone (device scale 3) the same element is shot twice, each shot
    found again by its item's viewport; one thumbnail, from the first viewport."""
    url = site.route("/shots-viewports/", Response(
        '<!doctype html><html lang=en><title>V</title><body style="margin:0"><main><h1>V</h1>'
        '<button style="position:absolute;left:40px;top:300px;width:100px;height:50px"></button>'
        "</main></body></html>"))
    shots = RunScreenshots()
    request = make_request(url, viewports=["desktop", "mobile"])
    audit = await audit_page(browser, url, request, EngineLimits(**FAST, screenshots=shots))
    buttons = {s.item.viewport: s for s in shots.pages[url].shots if s.item.rule_id == "button-name"}
    assert set(buttons) == {"desktop", "mobile"}
    assert size_of(buttons["desktop"]) == (100 + 2 * MARGIN, 50 + 2 * MARGIN)
    assert buttons["mobile"].scale == 3 and size_of(buttons["mobile"]) == (3 * (100 + 2 * MARGIN), 3 * (50 + 2 * MARGIN))
    rows = [(name, media, meta, None) for name, media, _data, meta in shots.pages[url].artifacts(0)]
    assert len({name for name, *_ in rows}) == len(rows) and sum(n.startswith("thumb-") for n, *_ in rows) == 1
    index = ScreenshotIndex.of_artifacts(rows)
    for finding in (f for f in audit.findings if f.rule_id == "button-name"):
        image = index.for_item("finding", finding)
        assert image is not None and image.scale == (3 if finding.viewport == "mobile" else 1)


async def test_one_shot_per_problem_per_page_and_as_many_across_the_run_as_a_report_shows(browser, site):
    """Four images of one component on a page are one problem: one shot of it per page, and
    across the run no more than ``per_problem`` (here 2, on the first two of three pages)."""
    images = "".join(f'<img class="tile" src="{PIXEL}" width=20 height=20>' for _ in range(4))
    body = f"<!doctype html><html lang=en><title>Tiles</title><main><h1>Tiles</h1><p>{images}</p></main></html>"
    shots = RunScreenshots(ScreenshotPolicy(per_problem=2))
    for n in range(3):
        url = site.route(f"/per-problem/{n}", Response(body))
        audit = await audit_page(browser, url, make_request(url), EngineLimits(**FAST, screenshots=shots))
        assert [f.rule_id for f in audit.findings] == ["image-alt"] * 4
        assert len({f.problem for f in audit.findings}) == 1
        assert len(shots.pages[url].shots) == (1 if n < 2 else 0), n
        assert shots.pages[url].thumbnail is not None  # the page's own picture is always taken
