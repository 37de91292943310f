"""Reaching a browser context's cookies and a page's web storage, for the storage_ tools and snapshots.

The storage_ tools and the storage snapshots (``state_snapshot``) read and write
the same things: cookies of the session's browser context through the Storage
domain, localStorage and sessionStorage by script in a page of the origin. Both
go through this module so there is one way to do each; what the audit shares
(cookie parameters, the web-storage script) lives below, in ``audit.storage_state``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import ToolError


def storage_state() -> Any:
    """``audit.storage_state``, imported on first use: it pulls in the driver, which
    declaring the tools must not."""
    import audit.storage_state

    return audit.storage_state


async def run_web_storage(page: Any, *args: Any) -> Any:
    """:func:`audit.storage_state.run_web_storage`, imported on first use."""
    return await storage_state().run_web_storage(page, *args)


def url_origin(url: str) -> str | None:
    """:func:`audit.storage_state.url_origin`, imported on first use."""
    return storage_state().url_origin(url)

if TYPE_CHECKING:
    from cdpdriver import Page

    from .session import ToolSession


PAGE_TIMEOUT = 10.0
COOKIE_FIELDS = ("name", "value", "domain", "path", "expires", "httpOnly", "secure", "session", "sameSite",
                 "partitionKey")
WEB_STORAGE_AREAS = {"local": "localStorage", "session": "sessionStorage"}


# -- web storage, by script in the page -----------------------------------------------------


async def web_storage(session: ToolSession, area: str, op: str, key: str | None = None,
                      value: Any = None) -> dict[str, Any]:
    """Run one operation on the current page's storage; an origin-less page is a clear error."""
    tab = await session.tab()
    if tab.dialog is not None:
        raise ToolError("dialog_open", f"a {tab.dialog.type} dialog is open; call dialog_handle first")
    result = await run_web_storage(tab.page, area, op, key, value)
    if "opaque" in result:
        raise ToolError("not_found", (
            f"the current page ({result['opaque']}) has no origin, so it has no {area}; "
            "navigate to a page of the site first (page_navigate)"))
    if "denied" in result:
        raise ToolError("not_found", f"{area} is not available on {result['origin']}: {result['denied']}")
    return result


async def page_origin(page: Page) -> str | None:
    """The page's origin, or None for about:blank, data: and pages that do not answer."""
    from cdpdriver import CDPError

    try:
        origin = await page.evaluate("location.origin", timeout=5)
    except CDPError:
        return None
    return origin if isinstance(origin, str) and origin not in ("", "null") else None


async def known_origins(session: ToolSession) -> list[str]:
    """http(s) origins the tabs show or have shown (their back/forward history), current tab first."""
    from cdpdriver import CDPError

    found: list[str] = []
    tabs = [t for t in session.tabs if not t.page.is_closed]
    if session.tabs and 0 <= session.current < len(session.tabs):
        current = session.tabs[session.current]
        tabs = [current] + [t for t in tabs if t is not current]
    for tab in tabs:
        try:
            history = await tab.session.send("Page.getNavigationHistory", timeout=5)
        except CDPError:
            continue
        entries = history.get("entries", [])
        index = history.get("currentIndex", 0)
        ordered = entries[index:index + 1] + entries[:index] + entries[index + 1:]
        for entry in ordered:
            origin = url_origin(entry.get("url", ""))
            if origin and origin not in found:
                found.append(origin)
    return found


# -- cookies of the browser context ---------------------------------------------------------


def cookie_view(cookie: dict[str, Any]) -> dict[str, Any]:
    """The fields an agent needs; the result can be passed back to storage_set_cookies."""
    return {k: cookie[k] for k in COOKIE_FIELDS if cookie.get(k) is not None}


def context_param(session: ToolSession) -> dict[str, Any]:
    """The ``browserContextId`` parameter that keeps a call inside the session's own context."""
    return storage_state().context_param(session.context_id)


async def context_cookies(session: ToolSession) -> list[dict[str, Any]]:
    """Every cookie of the session's browser context."""
    browser = await session.ensure_browser()
    reply = await browser.session.send("Storage.getCookies", context_param(session), timeout=PAGE_TIMEOUT)
    return [cookie_view(c) for c in reply.get("cookies", [])]


async def set_cookies(session: ToolSession, cookies: list[dict[str, Any]]) -> None:
    from cdpdriver import CDPError

    if not cookies:
        return
    browser = await session.ensure_browser()
    params = {"cookies": [storage_state().cookie_param(c) for c in cookies], **context_param(session)}
    try:
        await browser.session.send("Storage.setCookies", params, timeout=PAGE_TIMEOUT)
    except CDPError as exc:
        raise ToolError("invalid_arguments", f"the browser refused the cookies: {exc}") from None


async def clear_cookies(session: ToolSession) -> int:
    count = len(await context_cookies(session))
    browser = await session.ensure_browser()
    await browser.session.send("Storage.clearCookies", context_param(session), timeout=PAGE_TIMEOUT)
    return count
