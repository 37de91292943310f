"""a11y-flashing (WCAG 2.3.1) through the real engine: a large CSS strobe and a large GIF that
flash five times a second fail, and so does a page whose timer swaps its background; a script
that moves a large block as often, or recolours one twice a second, passes; a large fade whose content's brightness its styles do not give
is left for review; slow, dim, small or moving-only look-alikes pass or do not apply; a page
without animation is inapplicable."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from audit import engine, interactive
from tests.audit.checks.support import audit_pages, outcome, page
from tests.support.site import Response

RULE = "a11y-flashing"
STROBE = ("@keyframes strobe { 0%, 49% { background-color: #000 } 50%, 100% { background-color: #fff } }"
          " @keyframes pulse { from { background-color: #000 } to { background-color: #fff } }"
          " @keyframes blink { 0%, 49% { opacity: 0 } 50%, 100% { opacity: 1 } }"
          " @keyframes turn { to { transform: rotate(1turn) } }")


def gif(colours: list[tuple[int, int, int]], ms: int, size: int = 32) -> bytes:
    """A looping GIF of plain frames of these colours, ``ms`` each."""
    frames = [Image.new("RGB", (size, size), colour) for colour in colours]
    out = io.BytesIO()
    frames[0].save(out, "GIF", save_all=True, append_images=frames[1:], duration=ms, loop=0)
    return out.getvalue()


@pytest.fixture(autouse=True)
def only_this_check(monkeypatch):
    """This check alone in the interaction phase: the others' time is not this test's."""
    monkeypatch.setattr(engine, "selected_interactive", lambda version, level: [
        check for check in interactive.selected(version, level) if check.rule_id == RULE])


async def test_flashing(browser, site):
    black, white, dark = (0, 0, 0), (255, 255, 255), (40, 40, 40)
    site.route("/interactive/flash/strobe.gif", Response(gif([black, white], 100), content_type="image/gif"))
    site.route("/interactive/flash/slow.gif", Response(gif([black, white], 600), content_type="image/gif"))
    site.route("/interactive/flash/dim.gif", Response(gif([black, dark], 100), content_type="image/gif"))
    big = "width:400px;height:300px"
    results = await audit_pages(browser, site, "interactive/flash", {
        "fail": page(
            f"<style>{STROBE}</style><main><h1>Party</h1>"
            f'<div id="strobe" style="{big};animation:strobe 200ms infinite"></div>'
            '<img id="gif" src="/interactive/flash/strobe.gif" alt="Lights" width="400" height="300"></main>'
        ),
        "fail-script": page(
            "<style>body.dark { background: #000 }</style><main><h1>Party</h1><p>Tonight!</p></main>"
            # A timer swaps the page's background 20 times a second: 10 flashes.
            "<script>setInterval(() => document.body.classList.toggle('dark'), 50);</script>"
        ),
        "pass-script": page(
            f'<main><h1>Party</h1><div id="mover" style="{big};background:#000;position:relative"></div>'
            '<div id="slow" style="width:400px;height:300px;background:#fff"></div></main>'
            # Moved 20 times a second (no change of brightness), and recoloured twice a second.
            "<script>let x = 0; setInterval(() => { mover.style.left = (x = (x + 1) % 50) + 'px'; }, 50);"
            " setInterval(() => { slow.style.background = slow.style.background === 'black' ? 'white' : 'black'; }, 500);"
            "</script>"
        ),
        "review": page(
            f"<style>{STROBE}</style><main><h1>Party</h1>"
            f'<div id="blink" style="{big};animation:blink 150ms infinite"><p>Tonight only!</p></div></main>'
        ),
        "pass": page(
            f"<style>{STROBE}</style><main><h1>Party</h1>"
            # A slow fade back and forth: half a flash a second.
            f'<div style="{big};animation:pulse 1s infinite alternate"></div>'
            # Fast, but small: below the area that counts.
            '<div style="width:100px;height:100px;animation:strobe 200ms infinite"></div>'
            # Large and moving, but no change of brightness.
            f'<div style="{big};background:#000;animation:turn 300ms linear infinite"></div>'
            '<img src="/interactive/flash/slow.gif" alt="Slow lights" width="400" height="300">'
            '<img src="/interactive/flash/dim.gif" alt="Dim lights" width="400" height="300"></main>'
        ),
        "inapplicable": page(
            '<main><h1>Party</h1><img src="/interactive/flash/strobe.gif" alt="Lights" width="60" height="60">'
            f'<div style="{big};background:#000"></div></main>'
        ),
    })
    fail = outcome(results["fail"], RULE)
    assert sorted(f.selector for f in fail.findings) == ["#gif", "#strobe"]
    strobe = next(f for f in fail.findings if f.selector == "#strobe")
    assert "flashes 5 times a second" in (strobe.failure_summary or "")
    gif_finding = next(f for f in fail.findings if f.selector == "#gif")
    assert "flashes 5 times a second over 120,000 px²" in (gif_finding.failure_summary or "")
    assert {tuple(f.success_criteria) for f in fail.findings} == {("2.3.1",)}
    [script] = outcome(results["fail-script"], RULE).findings
    assert script.selector == "html > body" and "which a script restyles, flashes" in (script.failure_summary or "")
    moved = outcome(results["pass-script"], RULE)
    assert moved.clean
    review = outcome(results["review"], RULE)
    assert not review.findings and [r.selector for r in review.review] == ["#blink"]
    assert "6 times a second" in review.review[0].reason
    passed = outcome(results["pass"], RULE)
    assert passed.clean and passed.tested
    inapplicable = outcome(results["inapplicable"], RULE)
    assert inapplicable.clean and not inapplicable.tested
