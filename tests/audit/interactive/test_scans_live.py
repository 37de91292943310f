"""The checks' first reads made together (:mod:`audit.interactive.scans`), on a real page: a read
that found nothing to do is taken as it is, one that found something is read again when its
check asks, one that failed fails again for its check, and a check outside the phase reads for
itself. Each read counts its runs in the interaction world, so the test sees which were made."""

from __future__ import annotations

import pytest
import trio

from audit.interactive.probe import Probe
from audit.interactive.scans import first_read, prefetch
from audit.interactive.spec import Scan
from cdpdriver import JavaScriptError
from tests.audit.checks.support import page as html_page
from tests.audit.support import open_page

COUNTED = (
    "function (name) { const runs = globalThis.testReads || (globalThis.testReads = {});"
    " runs[name] = (runs[name] || 0) + 1; return name.startsWith('idle') ? [] : [name]; }"
)
IDLE = Scan(COUNTED, ("idle",))
BUSY = Scan(COUNTED, ("busy",))
FAILING = Scan("function () { throw new Error('no such thing'); }")
RUNS = "function () { return globalThis.testReads || {}; }"


@pytest.fixture
async def probe(page, site):
    url = site.route("/interactive/scans/page", html_page("<main><h1>Reads</h1><p>Nothing to act on.</p></main>"))
    await open_page(page, url)
    return Probe(page, url, trio.current_time() + 30)


async def test_a_read_that_found_nothing_stands_and_one_that_found_something_is_made_again(probe):
    await prefetch(probe, [IDLE, BUSY, FAILING, IDLE])  # a read two checks share is made once
    assert await probe.call(RUNS) == {"idle": 1, "busy": 1}
    assert await first_read(probe, IDLE) == []
    assert await first_read(probe, BUSY) == ["busy"]
    assert await probe.call(RUNS) == {"idle": 1, "busy": 2}
    with pytest.raises(JavaScriptError, match="no such thing"):
        await first_read(probe, FAILING)


async def test_a_check_outside_the_phase_reads_for_itself(probe):
    idle_here = Scan(COUNTED, ("idle-here",))
    assert await first_read(probe, idle_here) == []
    assert await first_read(probe, idle_here) == []
    assert await probe.call(RUNS) == {"idle-here": 2}
