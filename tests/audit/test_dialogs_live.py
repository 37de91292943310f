"""Pages that open dialogs are audited; what the dialogs said is on the page result (#17 item 5)."""

from __future__ import annotations

import pytest

from audit.engine import EngineLimits, run_audit
from tests.audit.support import make_request

#: Also part of the fault suite (issue #17): ``pytest -m faults`` runs it with tests/faults.
pytestmark = pytest.mark.faults

LIMITS = EngineLimits(navigation_timeout=10, audit_timeout=30)
CLEAN_HEAD = "<!doctype html><html lang=en><title>dialogs</title><main><h1>Hi</h1>"


async def test_alert_while_parsing_and_on_load(browser, site):
    url = site.route(
        "/dialogs/parse",
        CLEAN_HEAD + "<script>alert('while parsing')</script><p>after</p>"
        "<script>addEventListener('load', () => { confirm('on load?'); prompt('name?', 'x'); })</script></main>",
    )
    result = await run_audit(browser, make_request(url), LIMITS)
    page = result.pages[0]
    assert page.status == "ok"
    assert [(d.type, d.message) for d in page.dialogs] == [
        ("alert", "while parsing"), ("confirm", "on load?"), ("prompt", "name?")
    ]


async def test_dialog_inside_a_cross_site_frame(browser, site):
    inner = site.cross_site_url("/dialogs/inner")
    site.route("/dialogs/inner", "<!doctype html><html lang=en><title>i</title><script>alert('from the frame')</script>")
    url = site.route("/dialogs/outer", CLEAN_HEAD + f"<iframe title=inner src='{inner}'></iframe></main>")
    result = await run_audit(browser, make_request(url), LIMITS)
    page = result.pages[0]
    assert page.status == "ok" and page.untested_frames == []
    assert ("alert", "from the frame") in [(d.type, d.message) for d in page.dialogs]


async def test_endless_alerts_are_answered_and_recorded_once_each_up_to_a_bound(browser, site):
    url = site.route(
        "/dialogs/loop",
        CLEAN_HEAD + "<script>for (let i = 0; i < 50; i++) alert('again ' + i)</script></main>",
    )
    result = await run_audit(browser, make_request(url), LIMITS)
    page = result.pages[0]
    assert page.status == "ok"
    assert len(page.dialogs) == 20 and page.dialogs[0].message == "again 0"


async def test_beforeunload_does_not_hold_the_audit(browser, site):
    url = site.route(
        "/dialogs/unload",
        CLEAN_HEAD + "<script>addEventListener('beforeunload', e => { e.preventDefault(); e.returnValue = 'stay'; })"
        "</script></main>",
    )
    result = await run_audit(browser, make_request(url), LIMITS)
    assert result.pages[0].status == "ok"
