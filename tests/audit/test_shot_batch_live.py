"""Element shots cut from one capture, in a real Chromium (:mod:`audit.shot_batch`): each shot
shows its own element (coloured boxes at known places: each shot's middle is its box's
colour), the thumbnail and ten elements cost one ``Page.captureScreenshot``, elements far
apart on a tall page a few, an element a scrolling box hides in part is shot alone (scrolled
into view), and the page's time budget still holds while images are cut."""

from __future__ import annotations

import io
import time

import trio
from PIL import Image

import audit.shot_batch
from audit.models import Finding
from audit.screenshots import RunScreenshots, ScreenshotPolicy
from tests.audit.support import open_page
from tests.support.site import Response

#: Ten colours, one per box.
COLOURS = [(230, 25, 75), (60, 180, 75), (255, 225, 25), (0, 130, 200), (245, 130, 48),
           (145, 30, 180), (70, 240, 240), (240, 50, 230), (210, 245, 60), (0, 128, 128)]
MANY = ScreenshotPolicy(per_rule=50, timeout=60)


def _boxes(positions: list[tuple[int, int]], extra: str = "", height: int = 3000) -> str:
    boxes = "".join(
        f'<div id="b{n}" style="position:absolute;left:{x}px;top:{y}px;width:90px;height:50px;'
        f'background:rgb{COLOURS[n % len(COLOURS)]}"></div>'
        for n, (x, y) in enumerate(positions)
    )
    return (f'<!doctype html><html lang=en><title>Boxes</title><body style="margin:0">{boxes}{extra}'
            f'<div style="height:{height}px"></div></body></html>')


def _finding(n: int, url: str, selector: str) -> Finding:
    return Finding(
        id=f"f{n + 1}", rule_id="a11y-test-box", description="A box", impact="serious",
        element="div", selector=selector, html=f'<div id="b{n}">', help="https://example.com/",
        page_url=url, level="A", problem=f"{n:016x}",
    )


def _middle(data: bytes) -> tuple[int, int, int]:
    picture = Image.open(io.BytesIO(data)).convert("RGB")
    return picture.getpixel((picture.width // 2, picture.height // 2))


async def test_ten_elements_and_the_thumbnail_in_one_capture(page, site):
    positions = [(40 + 110 * n, 120 + 170 * n) for n in range(10)]
    url = site.route("/batch/ten", Response(_boxes(positions)))
    await open_page(page, url)
    await page.evaluate("window.scrollTo(0, 900)")
    findings = [_finding(n, url, f"#b{n}") for n in range(10)]
    shots = RunScreenshots(MANY)
    taken = await shots.capture(page, url, findings, [])
    assert taken.captures == 1
    assert taken.thumbnail is not None and taken.thumbnail.width == 320
    assert [s.item.id for s in taken.shots] == [f.id for f in findings] and not taken.skipped
    for shot in taken.shots:
        n = int(shot.item.id[1:]) - 1
        assert _middle(shot.data) == COLOURS[n], shot.item.id
        assert (shot.width, shot.height) == (90 + 32, 50 + 32)
    assert [s.number for s in taken.shots] == list(range(1, 11))
    assert await page.evaluate("scrollY") == 900  # left as it was


async def test_shots_are_taken_as_the_viewport_shows_them_without_relaying_out_the_page(page, site):
    # A capture beyond the viewport lays the whole document out at its full size and back (a
    # resize event tells); elements inside the viewport, or below it and revealed by
    # scrolling, need no such thing, and the page is scrolled back afterwards.
    positions = [(40, 100), (300, 400), (500, 2000)]
    counter = "<script>window.resizes = 0; addEventListener('resize', () => { window.resizes += 1; });</script>"
    url = site.route("/batch/inside", Response(_boxes(positions, counter)))
    await open_page(page, url)
    findings = [_finding(n, url, f"#b{n}") for n in range(2)]
    taken = await RunScreenshots(MANY).capture(page, url, findings, [])
    assert taken.captures == 1 and taken.thumbnail is not None
    assert [_middle(shot.data) for shot in taken.shots] == COLOURS[:2]
    below = [_finding(n, url, f"#b{n}") for n in range(3)]
    await page.evaluate("window.scrollTo(0, 150)")
    taken = await RunScreenshots(MANY).capture(page, url, below, [])
    assert [_middle(shot.data) for shot in taken.shots] == COLOURS[:3]
    assert await page.evaluate("[window.resizes, window.scrollY]") == [0, 150]


async def test_an_element_a_sticky_bar_would_cover_when_scrolled_to_is_shot_from_the_top(page, site):
    # Scrolled to, the box below the fold would sit under the sticky header: its shot is
    # taken beyond the viewport from the top instead, where nothing covers it.
    header = ('<div id="bar" style="position:sticky;top:0;height:520px;'
              'background:rgb(1,2,3)"></div>')
    url = site.route("/batch/sticky", Response(_boxes([(40, 4000)], header, height=6000)))
    await page.session.send("Emulation.setDeviceMetricsOverride",
                            {"width": 800, "height": 600, "deviceScaleFactor": 1, "mobile": False})
    await open_page(page, url)
    taken = await RunScreenshots(MANY).capture(page, url, [_finding(0, url, "#b0")], [])
    assert [_middle(shot.data) for shot in taken.shots] == [COLOURS[0]]
    assert await page.evaluate("scrollY") == 0


async def test_at_device_scale_two_and_far_apart_on_a_tall_page(page, site):
    # Two boxes near the top, two at the far bottom-right of a page 20,000 px tall and wide.
    positions = [(40, 100), (300, 400), (2400, 19_000), (2600, 19_400)]
    wide = '<div style="position:absolute;left:0;top:0;width:3000px;height:1px"></div>'
    url = site.route("/batch/tall", Response(_boxes(positions, wide, height=20_000)))
    await page.session.send("Emulation.setDeviceMetricsOverride",
                            {"width": 800, "height": 600, "deviceScaleFactor": 2, "mobile": False})
    await open_page(page, url)
    findings = [_finding(n, url, f"#b{n}") for n in range(4)]
    taken = await RunScreenshots(MANY).capture(page, url, findings, [])
    assert taken.captures == 2  # the top (with the thumbnail) and the bottom-right corner
    for shot in taken.shots:
        assert shot.scale == 2 and (shot.width, shot.height) == (2 * 122, 2 * 82)
        assert _middle(shot.data) == COLOURS[int(shot.item.id[1:]) - 1]


async def test_an_element_a_scrolling_box_hides_is_shot_alone(page, site):
    hidden = ('<div style="position:absolute;left:20px;top:300px;width:200px;height:100px;overflow:auto">'
              '<div style="height:600px"></div><div id="deep" style="width:80px;height:40px;'
              'background:rgb(0,0,255)"></div></div>')
    url = site.route("/batch/hidden", Response(_boxes([(40, 100)], hidden)))
    await open_page(page, url)
    findings = [_finding(0, url, "#b0"), _finding(1, url, "#deep")]
    taken = await RunScreenshots(MANY).capture(page, url, findings, [])
    assert taken.captures == 2  # one shared, one for the hidden element scrolled into view
    assert [_middle(s.data) for s in taken.shots] == [COLOURS[0], (0, 0, 255)]


async def test_the_page_budget_holds_while_images_are_cut(page, site, monkeypatch):
    url = site.route("/batch/slow", Response(_boxes([(40, 100), (200, 300)])))
    await open_page(page, url)
    slow_cut = audit.shot_batch.cut_region

    def slow(*args, **kwargs):
        time.sleep(30)
        return slow_cut(*args, **kwargs)

    monkeypatch.setattr(audit.shot_batch, "cut_region", slow)
    shots = RunScreenshots(ScreenshotPolicy(timeout=0.5))
    started = trio.current_time()
    taken = await shots.capture(page, url, [_finding(n, url, f"#b{n}") for n in range(2)], [])
    assert trio.current_time() - started < 15  # the two cuts alone would take 60 s
    assert taken.shots == [] and taken.thumbnail is None and shots.spent == 0
    assert await page.evaluate("scrollY") == 0
