"""The screen a page is audited on, and one page audited on several screens.

A request that names a viewport (``viewport``, or each of ``viewports`` in turn) has it set
in every tab of its audit before the tab's next navigation: a prepared spare, a reused tab
and the login tab all come as the browser made them (its 1280x800 window) and are set anew.
Set are the device metrics (CSS size, device pixels per CSS pixel and, for a phone, the
mobile layout rules: the page's viewport meta tag honoured, overlay scrollbars), touch, and
for a phone the Android user agent of this browser's own version with matching client hints
(``Sec-CH-UA-Mobile: ?1``), so a site that sniffs either serves what a phone gets. An
out-of-process frame gets the same agent and touch as it attaches.

A request that names none leaves the browser's window alone and its items untagged.

With ``viewports`` a page is loaded once per viewport, in the given order, in the same tab
(so the context, its cookies and its login are shared), and audited each time. Every
finding, needs-review and best-practice item carries the label of the viewport it was found
at; the page stays one :class:`~audit.models.PageResult`, whose ``findings`` counts them all,
whose ``score`` is that of its worst viewport, and whose ``rulesTested`` and
``untestedFrames`` are the union. Links for the crawl come from the first viewport's load.
"""

from __future__ import annotations

import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from functools import partial

from cdpdriver import Page, Session
from cdpdriver.page import ChildTarget
from cdpdriver.protocol import emulation

from .page_audit import PageAudit
from .request_options import Viewport
from .tabs import Tab

#: Touch points of the emulated phone.
TOUCH_POINTS = 5
#: The Android build named in the user agent: Chrome's reduced agent names this one for all.
ANDROID_VERSION = "10"

#: ``audit_once(first)``: one load and audit of the page in its tab as it is set now;
#: ``first`` is the first viewport's (it collects links and reports the load).
AuditOnce = Callable[[bool], Awaitable[PageAudit]]


@dataclass
class _Screen:
    """What is set in one page now; None is the browser's own."""

    viewport: Viewport | None = None


_SCREENS: weakref.WeakKeyDictionary[Page, _Screen] = weakref.WeakKeyDictionary()


async def apply_viewport(page: Page, viewport: Viewport) -> None:
    """Set ``viewport`` in ``page`` (and its frames to come); nothing is sent when it is set."""
    screen = _SCREENS.get(page)
    if screen is None:
        screen = _SCREENS[page] = _Screen()
        page.child_hooks.append(partial(_child_screen, page, screen))
    if screen.viewport == viewport:
        return
    was_mobile = screen.viewport is not None and screen.viewport.mobile
    await page.session.execute(
        emulation.set_device_metrics_override(
            viewport.width, viewport.height, viewport.device_scale_factor, viewport.mobile
        )
    )
    if viewport.mobile or was_mobile:
        await _touch_and_agent(page, page.session, viewport.mobile)
    screen.viewport = viewport


def current_viewport(page: Page) -> Viewport | None:
    """The viewport set in ``page`` now; None when it has the browser's own window."""
    screen = _SCREENS.get(page)
    return screen.viewport if screen is not None else None


async def _child_screen(page: Page, screen: _Screen, child: ChildTarget) -> None:
    if child.type == "iframe" and screen.viewport is not None and screen.viewport.mobile:
        await _touch_and_agent(page, child.session, True)


async def _touch_and_agent(page: Page, session: Session, mobile: bool) -> None:
    """A phone's touch and user agent, or (``mobile`` False) the browser's own again: an
    empty agent clears the override."""
    await session.execute(
        emulation.set_touch_emulation_enabled(mobile, max_touch_points=TOUCH_POINTS if mobile else None)
    )
    if not mobile:
        await session.execute(emulation.set_user_agent_override(""))
        return
    agent, metadata = await _mobile_agent(page)
    await session.execute(emulation.set_user_agent_override(agent, user_agent_metadata=metadata))


async def _mobile_agent(page: Page) -> tuple[str, emulation.UserAgentMetadata]:
    """Chromium's Android user agent (reduced: ``Chrome/<major>.0.0.0``) and client hints
    carrying the browser's real version."""
    version = page.browser.version  # read by the driver when it connected
    product = version.product if version is not None else ""
    full = product.partition("/")[2] or "0.0.0.0"
    major = full.partition(".")[0]
    agent = (
        f"Mozilla/5.0 (Linux; Android {ANDROID_VERSION}; K) AppleWebKit/537.36 (KHTML, like Gecko) "
        f"Chrome/{major}.0.0.0 Mobile Safari/537.36"
    )
    brand = emulation.UserAgentBrandVersion
    metadata = emulation.UserAgentMetadata(
        brands=[brand(brand="Chromium", version=major), brand(brand="Not_A Brand", version="24")],
        full_version_list=[brand(brand="Chromium", version=full), brand(brand="Not_A Brand", version="24.0.0.0")],
        platform="Android", platform_version=f"{ANDROID_VERSION}.0.0", architecture="", model="K",
        mobile=True,
    )
    return agent, metadata


async def audit_on_each(tab: Tab, viewports: list[Viewport] | None, audit_once: AuditOnce) -> PageAudit:
    """The page audited at each viewport in turn (see the module docstring), or once as the
    tab is when no viewport was asked for. A load that is not ``ok`` (the page is skipped)
    ends the round: the other viewports would only repeat it."""
    if viewports is None:
        return await audit_once(True)
    audits: list[PageAudit] = []
    for index, viewport in enumerate(viewports):
        if index:
            tab.begin()  # the dialogs recorded are this load's own
        await apply_viewport(tab.page, viewport)
        audit = await audit_once(index == 0)
        _tag(audit, viewport.label)
        audits.append(audit)
        if audit.page.status != "ok":
            break
    return _merged(audits)


def _tag(audit: PageAudit, label: str) -> None:
    for item in (*audit.findings, *audit.needs_review, *audit.best_practices):
        item.viewport = label


def _merged(audits: list[PageAudit]) -> PageAudit:
    """One page's audits at several viewports as one: items side by side, counts summed,
    the worst score, the union of rules tested and frames left untested."""
    first = audits[0]
    if len(audits) == 1:
        return first
    page = first.page.model_copy()
    scores = [a.page.score for a in audits if a.page.score is not None]
    page.score = min(scores) if scores else None
    page.findings = sum(a.page.findings for a in audits)
    page.rules_tested = sorted({rule for a in audits for rule in a.page.rules_tested})
    page.untested_frames = list(dict.fromkeys(f for a in audits for f in a.page.untested_frames))
    page.dialogs = [d for a in audits for d in a.page.dialogs]
    return replace(  # the rest (links, final URL, evidence) is the first load's
        first,
        page=page,
        findings=[f for a in audits for f in a.findings],
        needs_review=[r for a in audits for r in a.needs_review],
        best_practices=[b for a in audits for b in a.best_practices],
    )
