"""State shots through the real engine and a real Chromium: a finding of the interaction phase
is shown as the page looked while the barrier showed (320 CSS px wide, 200% zoom, a tooltip
shown), in place of a shot of the restored page; a page without such findings, and a run
without screenshots, takes none."""

from __future__ import annotations

import base64

import pytest

from audit import engine, interactive
from audit.engine import EngineLimits, audit_page
from audit.interactive import interact
from audit.rules import axe_run_options
from audit.screenshots import RunScreenshots, ScreenshotPolicy
from tests.audit.checks.support import INTERACTIVE
from tests.audit.checks.support import page as html_page
from tests.audit.support import make_request, open_page

RULES = {"a11y-reflow", "a11y-zoom-clipped-text", "a11y-hover-content"}
#: Every shot of the page, however loaded the machine.
POLICY = ScreenshotPolicy(timeout=120)
LIMITS = dict(navigation_timeout=15, audit_timeout=60)
TEXT = "Our harbour bakery opens a second shop this spring, with a bigger oven and longer hours."
#: Too wide at 320 px (reflow), a box of fixed size that cuts its text at 200% (zoom), and a
#: tooltip that vanishes when the pointer moves onto it (hover): one finding each.
BARRIERS = html_page(
    '<style>body { font: 16px/1.5 sans-serif; margin: 8px; } .tip { position: absolute; background: #ffd;'
    " width: 14em; padding: 4px; } .box { width: 600px; height: 3em; overflow: hidden; }</style>"
    f'<main><h1>News</h1><div class="hero" style="width: 700px"><p>{TEXT}</p></div>'
    f'<div class="box" id="cut"><p>{TEXT} {TEXT} {TEXT} {TEXT} {TEXT}</p></div>'
    '<p><button type="button" id="help" aria-describedby="tip">Opening hours</button>'
    '<span class="tip" id="tip" role="tooltip" hidden>Monday to Saturday, 7:00 to 18:00.</span> words beside.</p>'
    "<script>const b = document.getElementById('help'), tip = document.getElementById('tip');"
    "b.addEventListener('mouseenter', () => { tip.hidden = false; });"
    "b.addEventListener('mouseleave', () => { tip.hidden = true; });"
    "b.addEventListener('focus', () => { tip.hidden = false; });"
    "b.addEventListener('blur', () => { tip.hidden = true; });"
    "document.addEventListener('keydown', (e) => { if (e.key === 'Escape') tip.hidden = true; });</script></main>"
)
#: Three boxes too wide at 320 px: three findings, two state shots (the check's allowance).
THREE_WIDE = html_page("<main><h1>News</h1>" + "".join(
    f'<div id="w{n}" style="width: {700 + 50 * n}px"><p>{TEXT}</p></div>' for n in range(3)) + "</main>")


@pytest.fixture(autouse=True)
def only_these_checks(monkeypatch):
    """The checks that take state shots here, alone in the phase: the others' time is not this test's."""
    monkeypatch.setattr(engine, "selected_interactive", lambda version, level: [
        check for check in interactive.selected(version, level) if check.rule_id in RULES])


def _css(shot) -> tuple[float, float]:
    return shot.width / shot.scale, shot.height / shot.scale


async def test_findings_are_shot_in_the_state_that_shows_them(browser, site):
    url = site.route("/state-shots/barriers", BARRIERS)
    shots = RunScreenshots(POLICY)
    request = make_request(url, checks=INTERACTIVE)
    audit = await audit_page(browser, url, request, EngineLimits(**LIMITS, screenshots=shots))
    found: dict[str, object] = {}
    for finding in audit.findings:
        found.setdefault(finding.rule_id, finding)
    assert set(found) >= RULES, [(f.rule_id, f.selector) for f in audit.findings]
    by_rule: dict[str, object] = {}
    for shot in shots.pages[url].shots:
        by_rule.setdefault(shot.item.rule_id, shot)

    reflow = by_rule["a11y-reflow"]
    assert reflow.item is found["a11y-reflow"] and reflow.state == "at 320 CSS px wide"
    assert _css(reflow)[0] <= 320  # the restored page would show the 700 px box whole
    zoom = by_rule["a11y-zoom-clipped-text"]
    assert zoom.item is found["a11y-zoom-clipped-text"] and zoom.item.selector == "#cut"
    assert zoom.state == "at 640 x 512 CSS px (200% zoom)" and _css(zoom)[0] <= 640
    hover = by_rule["a11y-hover-content"]
    assert hover.item is found["a11y-hover-content"] and hover.item.selector == "#help"
    assert hover.state == "hovered"
    # The button and the 14 em tooltip beside it, where the button's own shot would be some 130 px.
    assert _css(hover)[0] >= 14 * 16 + 2 * POLICY.margin

    # Stored and shown like any shot, its meta saying what it shows; other rules' shots say nothing.
    metas = {meta.get("ruleId"): meta for _, _, _, meta in shots.pages[url].artifacts(1)}
    assert metas["a11y-reflow"]["state"] == "at 320 CSS px wide"
    assert all("state" not in meta for rule, meta in metas.items() if rule not in RULES)


async def test_state_shots_only_when_the_run_takes_screenshots(page, site):
    """The phase itself: with the run's screenshot policy, a check shoots at most two of its
    findings; without one, none; a page without such findings, none either."""
    url = site.route("/state-shots/three-wide", THREE_WIDE)
    reflow = [c for c in interactive.selected("2.2", "AA") if c.rule_id == "a11y-reflow"]
    await open_page(page, url)
    report = await interact(page, url, reflow, 30, shots=POLICY)
    failed = report.results["violations"][0]["nodes"]
    assert len(failed) == 3
    assert set(report.state_shots) == {("a11y-reflow", "#w2"), ("a11y-reflow", "#w1")}  # the widest first
    assert all(s.state == "at 320 CSS px wide" and s.width <= 320 * s.scale for s in report.state_shots.values())

    without = await interact(page, url, reflow, 30)
    assert len(without.results["violations"][0]["nodes"]) == 3 and without.state_shots == {}

    clean = site.route("/state-shots/clean", html_page(f"<main><h1>News</h1><p>{TEXT}</p></main>"))
    await open_page(page, clean)
    passed = await interact(page, clean, reflow, 30, shots=POLICY)
    assert passed.results["passes"] and not passed.results["violations"] and passed.state_shots == {}


#: Links Tab scrolls under a fixed cookie banner (focus obscured), a box of fixed height whose
#: two lines no longer fit with WCAG 1.4.12's spacing (text spacing), and a modal dialog that
#: leaves focus on its opener (dialog focus).
HIDDEN_STATES = html_page(
    '<main><h1>Stories</h1><div id="card" style="width: 420px; height: 2.5em; overflow: hidden">'
    f"<p style='margin: 0'>{TEXT}</p></div>"
    '<button type="button" id="open" aria-haspopup="dialog">Subscribe</button>'
    '<div role="dialog" aria-modal="true" aria-label="Newsletter" id="d" hidden style="position: fixed; top: 20px;'
    ' left: 20px; width: 300px; background: #fff; border: 2px solid"><p>Our news, weekly.</p>'
    '<button type="button" id="close">Close</button></div>'
    "<script>const d = document.getElementById('d');"
    "document.getElementById('open').addEventListener('click', () => { d.hidden = false; });"
    "document.getElementById('close').addEventListener('click', () => { d.hidden = true; });"
    "d.addEventListener('keydown', (e) => { if (e.key === 'Escape') d.hidden = true; });</script>"
    + "".join(f'<p style="margin: 0 0 2.5em"><a id="l{i}" href="/story/{i}">Story {i}</a></p>' for i in range(30))
    + '</main><div id="cookies" style="position: fixed; bottom: 0; left: 0; right: 0; height: 160px;'
    ' background: #333; color: #fff">We use cookies.</div>',
    head="<style>body { font: 16px/1.15 sans-serif; margin: 8px }</style>",
)


async def test_focus_under_fixed_content_spaced_text_and_an_open_dialog_are_shot_so(page, site):
    url = site.route("/state-shots/hidden-states", HIDDEN_STATES)
    wanted = {"a11y-focus-obscured", "a11y-text-spacing", "a11y-dialog-focus"}
    checks = [c for c in interactive.selected("2.2", "AA") if c.rule_id in wanted]
    await open_page(page, url)
    report = await interact(page, url, checks, 30, shots=POLICY)
    states = {rule: (selector, shot) for (rule, selector), shot in report.state_shots.items()}
    assert set(states) == wanted, (report.info, report.results["violations"])

    selector, focused = states["a11y-focus-obscured"]
    assert selector.startswith("#l") and focused.state == "with keyboard focus, under fixed content"
    # Inside the link's box the shot shows the banner over it (the restored page shows the link).
    assert await _pixel(page, focused, POLICY.margin + 3, POLICY.margin + 3) == [51, 51, 51]
    selector, spaced = states["a11y-text-spacing"]
    assert selector == "#card" and spaced.state == "with WCAG 1.4.12 text spacing"
    selector, dialog = states["a11y-dialog-focus"]
    assert selector == "#d" and dialog.state == "open" and _css(dialog)[0] >= 300  # hidden once closed
    assert await page.evaluate("document.querySelectorAll('style[data-a11y-probe]').length") == 0


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


#: A button that takes focus back when it loses it (a keyboard trap), and a menu whose toggle
#: never says it is expanded and whose hidden logo has no alt (revealed state, image-alt).
TRAP_AND_MENU = html_page(
    '<main><h1>Shop</h1><p><a href="/a">First</a></p>'
    '<button id="held" onblur="this.focus()">Pick a date</button>'
    '<nav aria-label="Site"><button type="button" id="toggle" aria-expanded="false" aria-controls="menu">Menu</button>'
    '<div id="menu" hidden><img id="logo" src="/logo.png" width="40" height="40"><a href="/bread">Bread</a></div></nav>'
    "<script>const t = document.getElementById('toggle'), m = document.getElementById('menu');"
    "t.addEventListener('click', () => { m.hidden = !m.hidden; });</script></main>"
)


async def test_a_trap_and_revealed_content_are_shot_while_they_hold(page, site):
    url = site.route("/state-shots/trap-and-menu", TRAP_AND_MENU)
    wanted = {"a11y-keyboard-trap", "a11y-revealed-state"}
    checks = [c for c in interactive.selected("2.2", "AA") if c.rule_id in wanted]
    await open_page(page, url)
    report = await interact(page, url, checks, 30, axe_options=axe_run_options("2.2", "AA"), shots=POLICY)
    assert set(report.state_shots) == {
        ("a11y-keyboard-trap", "#held"), ("image-alt", "#logo"), ("a11y-revealed-state", "#toggle"),
    }, (report.info, report.results["violations"])
    assert report.state_shots[("a11y-keyboard-trap", "#held")].state == "focus held in the cycle"
    # The logo is hidden once the menu is put back (its element shot would be skipped): shot open.
    logo = report.state_shots[("image-alt", "#logo")]
    # The trap's button takes focus back at once whenever it loses it, so the toggle never
    # keeps focus for Enter: the check falls back to a click, and puts the menu back by one.
    # (A trap that took focus back after a timer made this a race, lost under load.)
    assert logo.state == 'after clicking button#toggle ("Menu")'
    assert min(_css(logo)) >= 40 + POLICY.margin  # the 40 px logo and its context (cut at the page's edge)
    assert await page.evaluate("document.getElementById('menu').hidden") is True
