"""Session-wide fixtures: one real Chromium and one local site for every test."""

from __future__ import annotations

import pytest

from tests.support.chrome import SharedChromium
from tests.support.site import Site


@pytest.fixture(scope="session")
def chromium():
    shared = SharedChromium()
    yield shared
    shared.stop()


@pytest.fixture(scope="session")
def site():
    server = Site().start()
    yield server
    server.stop()


@pytest.fixture
async def browser(chromium):
    """A connection to the shared browser, closed after the test."""
    from cdpdriver import connect

    async with connect(chromium.ws_url) as connected:
        yield connected


@pytest.fixture
async def page(browser):
    """A page in its own browser context, disposed after the test."""
    async with browser.context() as ctx, ctx.page() as opened:
        yield opened
