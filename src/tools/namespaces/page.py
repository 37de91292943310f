"""page_: navigation, page state, scrolling, viewport, tabs as pages and emulation.

Page tools act on the current tab's top-level document (frame_select does not
redirect them), except ``page_scroll`` and ``page_inspect``, which work in the
current frame so their selectors and scroll positions match what the element
tools see. The page map (``page_inspect``) and the screenshot and PDF tools
(``page_capture``) have modules of their own.
"""

from __future__ import annotations

from typing import Any, Literal

import trio
from pydantic import Field

from cdpdriver import ProtocolError
from cdpdriver.scripts import call_expression, load_script

from .. import locate
from ..errors import ToolError
from ..models import (
    MessageOutput,
    NoInput,
    TabInfo,
    TimeoutMs,
    ToolInput,
    ToolOutput,
    WaitTimeoutMs,
)
from ..registry import tool
from ..session import ToolSession
from ..tab import Tab
from .tab import bring_to_front, close_and_report, sync_tabs, tab_info

LoadState = Literal["load", "domcontentloaded", "networkidle", "commit"]


async def _tab(session: ToolSession) -> Tab:
    """The current tab, refusing to evaluate behind an open dialog (it would block)."""
    tab = await session.tab()
    locate.check_no_dialog(tab)
    return tab


# -- navigation -----------------------------------------------------------------------------


class NavigateInput(ToolInput):
    url: str = Field(min_length=1, description="Absolute URL to open (http, https, file, data, about)")
    wait_until: LoadState = Field(default="load", description="Lifecycle state to wait for")
    timeout_ms: int = WaitTimeoutMs


class NavigateOutput(ToolOutput):
    url: str = Field(description="Current URL after navigation (and redirects)")
    title: str
    status: int | None = Field(default=None, description="HTTP status of the document, when known")


@tool("page_navigate", NavigateInput, NavigateOutput, records=True)
async def page_navigate(session: ToolSession, args: NavigateInput) -> NavigateOutput:
    """Open a URL in the current tab and wait until it has loaded (wait_until: load by default,
    domcontentloaded, networkidle or commit). Returns the final URL, the title and the HTTP
    status. A network error (refused, DNS) is a navigation_failed error."""
    tab = await session.tab()
    tab.frame = None
    await _unless_dialog(
        tab, tab.page.navigate(args.url, wait_until=args.wait_until, timeout=args.timeout_ms / 1000)
    )
    info = await tab.page.evaluate(
        "({url: location.href, title: document.title, "
        "status: (performance.getEntriesByType('navigation')[0] || {}).responseStatus || null})"
    )
    return NavigateOutput(url=info["url"], title=info["title"], status=info.get("status") or None)


class HistoryInput(ToolInput):
    timeout_ms: int = WaitTimeoutMs


class PageStateOutput(ToolOutput):
    url: str = Field(description="URL of the page now shown")
    title: str


async def _page_state(tab: Tab) -> PageStateOutput:
    info = await tab.page.evaluate("({url: location.href, title: document.title})", timeout=10)
    return PageStateOutput(url=info["url"], title=info["title"])


async def _wait_document_complete(tab: Tab) -> None:
    """Poll until the top document finished loading; a context torn down mid-poll is retried."""
    while True:
        try:
            if await tab.page.evaluate("document.readyState", timeout=5) == "complete":
                return
        except ProtocolError:
            pass
        await trio.sleep(0.02)


async def _unless_dialog(tab: Tab, navigation: Any) -> None:
    """Leaving a page can open a beforeunload dialog, which blocks it: report, do not hang."""
    await locate.guard_dialog(tab, navigation)
    if tab.dialog is not None:
        raise ToolError("dialog_open", f"a {tab.dialog.type} dialog opened ({tab.dialog.message!r}) and holds "
                                       "the navigation; call dialog_handle (accept leaves the page)")


async def _go_history(session: ToolSession, delta: int, timeout_ms: int) -> PageStateOutput:
    """Move ``delta`` entries through the tab's history and wait for that page to be shown.

    Back/forward can load a new document, restore one from the back-forward cache
    or stay in the same document (hash, pushState); all three announce themselves
    with a main-frame navigation event, after which the document must be complete.
    """
    tab = await _tab(session)
    history = await tab.session.send("Page.getNavigationHistory", timeout=10)
    current, entries = int(history["currentIndex"]), history["entries"]
    target = current + delta
    if not 0 <= target < len(entries):
        word = "previous" if delta < 0 else "next"
        raise ToolError("not_found", f"there is no {word} page in this tab's history "
                                     f"(at entry {current + 1} of {len(entries)}); use page_navigate")
    tab.frame = None
    main = tab.page.main_frame_id

    async def go() -> None:
        with tab.session.listen(["Page.frameNavigated", "Page.navigatedWithinDocument"], raw=True) as events:
            await tab.session.send("Page.navigateToHistoryEntry", {"entryId": entries[target]["id"]})
            async for event in events:
                frame = event.params.get("frame") or {}
                if (frame.get("id") or event.params.get("frameId")) == main:
                    break
        await _wait_document_complete(tab)

    with trio.move_on_after(timeout_ms / 1000):
        await _unless_dialog(tab, go())
        return await _page_state(tab)
    raise ToolError("timeout", f"the history navigation to {entries[target].get('url')} did not finish "
                               f"within {timeout_ms} ms; retry with a larger timeout_ms")


@tool("page_go_back", HistoryInput, PageStateOutput, records=True)
async def page_go_back(session: ToolSession, args: HistoryInput) -> PageStateOutput:
    """Go back one page in the current tab's history (like the Back button) and wait until it
    is shown. Returns its URL and title; with no previous page it is a not_found error."""
    return await _go_history(session, -1, args.timeout_ms)


@tool("page_go_forward", HistoryInput, PageStateOutput, records=True)
async def page_go_forward(session: ToolSession, args: HistoryInput) -> PageStateOutput:
    """Go forward one page in the current tab's history and wait until it is shown. Returns its
    URL and title; with no next page it is a not_found error."""
    return await _go_history(session, 1, args.timeout_ms)


class ReloadInput(ToolInput):
    wait_until: LoadState = Field(default="load", description="Lifecycle state to wait for")
    timeout_ms: int = WaitTimeoutMs


@tool("page_reload", ReloadInput, PageStateOutput, records=True)
async def page_reload(session: ToolSession, args: ReloadInput) -> PageStateOutput:
    """Reload the current page and wait until it has loaded (wait_until, default load).
    Returns the URL and title after the reload."""
    tab = await _tab(session)
    tab.frame = None
    await _unless_dialog(tab, tab.page.reload(wait_until=args.wait_until, timeout=args.timeout_ms / 1000))
    return await _page_state(tab)


# -- scrolling ------------------------------------------------------------------------------

class ScrollInput(ToolInput):
    direction: Literal["up", "down", "left", "right"] = Field(description="Which way to scroll")
    amount: int = Field(default=0, ge=0, description="Pixels to scroll; 0 = one page (the visible height or width)")
    selector: str | None = Field(default=None, min_length=1,
                                 description="CSS selector of a scrollable element to scroll instead of the page")
    timeout_ms: int = TimeoutMs


class ScrollOutput(ToolOutput):
    message: str
    x: float = Field(description="Horizontal scroll position after scrolling, px")
    y: float = Field(description="Vertical scroll position after scrolling, px")
    max_x: float = Field(description="Largest possible x: x == max_x means the right edge is reached")
    max_y: float = Field(description="Largest possible y: y == max_y means the bottom is reached")


@tool("page_scroll", ScrollInput, ScrollOutput, records=True)
async def page_scroll(session: ToolSession, args: ScrollInput) -> ScrollOutput:
    """Scroll the page (or the element matched by selector) up, down, left or right by amount
    pixels; amount 0 scrolls one page. Returns the new scroll position and the maximum, so you
    can tell when the end is reached (e.g. to load more content)."""
    if args.selector:
        element = await locate.element(session, args.selector, args.timeout_ms, state="attached")
        pos = await element.call(load_script("tools", "page_scroll"), args.direction, args.amount)
        where = f"element {args.selector!r}"
    else:
        pos = await locate.evaluate(
            session, call_expression(load_script("tools", "page_scroll"), args.direction, args.amount))
        where = "the page"
    message = f"scrolled {where} {args.direction} by {pos['step']:g} px; now at x={pos['x']:g}, y={pos['y']:g}"
    return ScrollOutput(message=message, x=pos["x"], y=pos["y"], max_x=pos["max_x"], max_y=pos["max_y"])


# -- page state -----------------------------------------------------------------------------


class TitleOutput(ToolOutput):
    title: str


@tool("page_get_title", NoInput, TitleOutput)
async def page_get_title(session: ToolSession, args: NoInput) -> TitleOutput:
    """Return the current tab's page title (document.title of the top-level page)."""
    tab = await session.tab()
    if tab.dialog is not None:  # the page is blocked; the browser still knows the title
        return TitleOutput(title=await tab.title())
    return TitleOutput(title=str(await tab.page.evaluate("document.title", timeout=10)))


class UrlOutput(ToolOutput):
    url: str


@tool("page_get_url", NoInput, UrlOutput)
async def page_get_url(session: ToolSession, args: NoInput) -> UrlOutput:
    """Return the current tab's URL (of the top-level page, including hash changes)."""
    tab = await session.tab()
    if tab.dialog is not None:
        return UrlOutput(url=await tab.url())
    return UrlOutput(url=str(await tab.page.evaluate("location.href", timeout=10)))


class ContentInput(ToolInput):
    max_length: int = Field(default=0, ge=0, description="Truncate the HTML to this many characters; 0 = no limit")


class ContentOutput(ToolOutput):
    html: str = Field(description="Serialized HTML of the whole document, doctype included")
    length: int = Field(description="Length of the full HTML in characters")
    truncated: bool


@tool("page_get_content", ContentInput, ContentOutput)
async def page_get_content(session: ToolSession, args: ContentInput) -> ContentOutput:
    """Return the current page's full HTML as it is now (live DOM, not the original source).
    Pages can be large: set max_length to cap it, or use page_inspect for a compact map."""
    tab = await _tab(session)
    html = str(await tab.page.evaluate(load_script("tools", "page_content"), timeout=30))
    cut = bool(args.max_length) and len(html) > args.max_length
    return ContentOutput(html=html[: args.max_length] if cut else html, length=len(html), truncated=cut)


class SetContentInput(ToolInput):
    html: str = Field(description="The HTML document to show in the current tab")


@tool("page_set_content", SetContentInput, MessageOutput, records=True)
async def page_set_content(session: ToolSession, args: SetContentInput) -> MessageOutput:
    """Replace the current tab's document with the given HTML (scripts in it run) without a
    network request; the URL stays the same. Useful to test a snippet of markup."""
    tab = await _tab(session)
    tab.frame = None
    await tab.page.set_content(args.html)
    title = await tab.page.evaluate("document.title", timeout=10)
    return MessageOutput(message=f"page content set ({len(args.html)} characters); title {title!r}")


# -- viewport -------------------------------------------------------------------------------


class ViewportOutput(ToolOutput):
    width: int = Field(description="Layout viewport width in CSS pixels (window.innerWidth)")
    height: int = Field(description="Layout viewport height in CSS pixels (window.innerHeight)")
    device_scale_factor: float = Field(description="Device pixels per CSS pixel (window.devicePixelRatio)")


async def _viewport(tab: Tab) -> ViewportOutput:
    size = await tab.page.evaluate(
        "({width: innerWidth, height: innerHeight, device_scale_factor: devicePixelRatio})", timeout=10
    )
    return ViewportOutput(**size)


@tool("page_get_viewport", NoInput, ViewportOutput)
async def page_get_viewport(session: ToolSession, args: NoInput) -> ViewportOutput:
    """Return the viewport as the page sees it: width and height in CSS pixels and the device
    scale factor."""
    return await _viewport(await _tab(session))


class SetViewportInput(ToolInput):
    width: int = Field(ge=1, le=10_000, description="Viewport width in CSS pixels")
    height: int = Field(ge=1, le=10_000, description="Viewport height in CSS pixels")
    device_scale_factor: float | None = Field(
        default=None, gt=0, le=10, description="Device pixels per CSS pixel, e.g. 2 for a retina screen; default unchanged")
    mobile: bool = Field(default=False, description="Emulate a mobile device (meta viewport, overlay scrollbars)")


@tool("page_set_viewport", SetViewportInput, ViewportOutput)
async def page_set_viewport(session: ToolSession, args: SetViewportInput) -> ViewportOutput:
    """Resize the current tab's viewport (CSS pixels) to test responsive layouts; optionally
    set the device scale factor and mobile emulation. Returns the viewport the page now sees."""
    tab = await _tab(session)
    await tab.session.send("Emulation.setDeviceMetricsOverride", {
        "width": args.width, "height": args.height,
        "deviceScaleFactor": args.device_scale_factor or 0, "mobile": args.mobile,
    })
    return await _viewport(tab)


# -- tabs as pages --------------------------------------------------------------------------


class NewPageInput(ToolInput):
    url: str | None = Field(default=None, min_length=1, description="URL to open in the new tab; default about:blank")


class NewPageOutput(ToolOutput):
    message: str
    tab: TabInfo
    count: int = Field(description="Open tabs now")


@tool("page_new", NewPageInput, NewPageOutput, records=True)
async def page_new(session: ToolSession, args: NewPageInput) -> NewPageOutput:
    """Open a new tab (optionally at url, waiting for it to load), bring it to the front and make
    it current; later tools act on it. Use tab_select to go back to another tab."""
    tab = await session.new_tab(args.url or "about:blank")
    await bring_to_front(tab)
    targets = await sync_tabs(session)
    session.current = session.tabs.index(tab)
    info = tab_info(session, tab, targets)
    return NewPageOutput(message=f"opened tab {info.index} ({info.url})", tab=info, count=len(session.tabs))


class PageCountOutput(ToolOutput):
    count: int = Field(description="Open tabs, popups included")
    current_tab: int = Field(description="Index of the current tab")


@tool("page_get_count", NoInput, PageCountOutput)
async def page_get_count(session: ToolSession, args: NoInput) -> PageCountOutput:
    """Return how many tabs are open (including popups the page opened) and the current index."""
    await sync_tabs(session)
    return PageCountOutput(count=len(session.tabs), current_tab=session.current)


class PageCloseOutput(ToolOutput):
    message: str
    count: int = Field(description="Tabs still open")
    current_tab: int | None = Field(description="Index of the tab that is current now; null when none is left")


@tool("page_close", NoInput, PageCloseOutput, records=True)
async def page_close(session: ToolSession, args: NoInput) -> PageCloseOutput:
    """Close the current tab. Another open tab becomes current (and comes to the front);
    after closing the last one, the next page tool opens a fresh tab."""
    if not session.browser_launched or not session.tabs:
        raise ToolError("not_found", "no tab is open; page_new or page_navigate opens one")
    await sync_tabs(session)
    closed = await close_and_report(session, session.tabs[session.current])
    return PageCloseOutput(**closed.model_dump())


@tool("page_bring_to_front", NoInput, MessageOutput)
async def page_bring_to_front(session: ToolSession, args: NoInput) -> MessageOutput:
    """Bring the current tab to the front (focus it), e.g. before input that needs a focused,
    visible page."""
    tab = await session.tab()
    await bring_to_front(tab)
    return MessageOutput(message=f"tab {session.current} is in front")


# -- emulation ------------------------------------------------------------------------------

# input field -> CSS media feature it emulates
MEDIA_FEATURES = {
    "color_scheme": "prefers-color-scheme",
    "reduced_motion": "prefers-reduced-motion",
    "forced_colors": "forced-colors",
    "contrast": "prefers-contrast",
}


class EmulateMediaInput(ToolInput):
    media: Literal["screen", "print"] | None = Field(default=None, description="CSS media type")
    color_scheme: Literal["light", "dark", "no-preference"] | None = Field(
        default=None, description="prefers-color-scheme")
    reduced_motion: Literal["reduce", "no-preference"] | None = Field(
        default=None, description="prefers-reduced-motion")
    forced_colors: Literal["active", "none"] | None = Field(default=None, description="forced-colors")
    contrast: Literal["more", "less", "no-preference"] | None = Field(default=None, description="prefers-contrast")
    reset: bool = Field(default=False, description="Clear earlier emulation first (otherwise settings add up)")


class EmulateMediaOutput(ToolOutput):
    message: str
    settings: list[str] = Field(description="Every emulation now active in this tab, e.g. 'prefers-color-scheme: dark'")


@tool("page_emulate_media", EmulateMediaInput, EmulateMediaOutput)
async def page_emulate_media(session: ToolSession, args: EmulateMediaInput) -> EmulateMediaOutput:
    """Emulate CSS media for accessibility testing: media type (screen/print) and the user
    preferences prefers-color-scheme, prefers-reduced-motion, forced-colors and
    prefers-contrast. Settings add up across calls in the tab (reset clears them) and last
    across navigations. Returns the active settings."""
    tab = await _tab(session)
    state: dict[str, str] = {} if args.reset else dict(tab.extras.get("page.media", {}))
    for field in ("media", *MEDIA_FEATURES):
        value = getattr(args, field)
        if value is not None:
            state[field] = value
    await tab.session.send("Emulation.setEmulatedMedia", {
        "media": state.get("media", ""),
        "features": [{"name": css, "value": state[field]} for field, css in MEDIA_FEATURES.items() if field in state],
    })
    tab.extras["page.media"] = state
    settings = [f"{MEDIA_FEATURES.get(field, 'media')}: {value}" for field, value in state.items()]
    return EmulateMediaOutput(message=f"emulating {', '.join(settings)}" if settings else "no media emulation",
                              settings=settings)


class GeolocationInput(ToolInput):
    latitude: float = Field(ge=-90, le=90, description="Latitude in degrees")
    longitude: float = Field(ge=-180, le=180, description="Longitude in degrees")
    accuracy: float = Field(default=10.0, ge=0, description="Accuracy radius in metres")


@tool("page_set_geolocation", GeolocationInput, MessageOutput)
async def page_set_geolocation(session: ToolSession, args: GeolocationInput) -> MessageOutput:
    """Make navigator.geolocation report the given position in the current tab and grant the
    geolocation permission, so location-aware pages work without a prompt."""
    tab = await _tab(session)
    grant: dict[str, Any] = {"permissions": ["geolocation"]}
    if session.context_id:
        grant["browserContextId"] = session.context_id
    browser = await session.ensure_browser()
    await browser.session.send("Browser.grantPermissions", grant)
    await tab.session.send("Emulation.setGeolocationOverride", {
        "latitude": args.latitude, "longitude": args.longitude, "accuracy": args.accuracy,
    })
    return MessageOutput(message=f"geolocation set to {args.latitude}, {args.longitude} "
                                 f"(±{args.accuracy:g} m); permission granted")
