"""page_: navigation, page state, scrolling, viewport, tabs as pages and emulation.

Page tools act on the current tab's top-level document (frame_select does not
redirect them), except ``page_scroll`` and ``page_inspect``, which work in the
current frame so their selectors and scroll positions match what the element
tools see. The page map (``page_inspect``) and the screenshot and PDF tools
(``page_capture``) have modules of their own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from ..action_snapshot import SnapshotAfter
from ..errors import ToolError
from ..models import (
    DownloadInfo,
    MessageOutput,
    NoInput,
    TabInfo,
    TimeoutMs,
    ToolInput,
    ToolOutput,
    WaitTimeoutMs,
)
from ..registry import tool
from .tab import bring_to_front, close_and_report, sync_tabs, tab_info

if TYPE_CHECKING:
    from ..session import ToolSession
    from ..tab import Tab


LoadState = Literal["load", "domcontentloaded", "networkidle", "commit"]


async def _tab(session: ToolSession) -> Tab:
    """The current tab, refusing to evaluate behind an open dialog (it would block)."""
    from .. import locate

    tab = await session.tab()
    locate.check_no_dialog(tab)
    return tab


# -- navigation -----------------------------------------------------------------------------


class NavigateInput(SnapshotAfter):
    url: str = Field(min_length=1)
    wait_until: LoadState = "load"
    timeout_ms: int = WaitTimeoutMs


class NavigateOutput(ToolOutput):
    url: str = Field(description="Current URL after navigation (and redirects)")
    title: str
    status: int | None = Field(default=None, description="HTTP status of the document, when known")
    download: DownloadInfo | None = Field(default=None, exclude_if=lambda v: v is None,
                                          description="The file, when the URL was a download (the page stays)")


@tool("page_navigate", NavigateInput, NavigateOutput, records=True, effect="acts", open_world=True)
async def page_navigate(session: ToolSession, args: NavigateInput) -> NavigateOutput:
    """Open a URL and wait until it loads; returns the final URL, title and status."""
    from cdpdriver import NavigationFailed

    from ..downloads import START_WAIT, watch_action

    tab = await session.tab()
    tab.frame = None
    watch = await watch_action(session, tab)
    download = None
    try:
        await _unless_dialog(
            tab, tab.page.navigate(args.url, wait_until=args.wait_until, timeout=args.timeout_ms / 1000)
        )
    except NavigationFailed as exc:  # a download aborts the navigation: the page stays, the file is saved
        if "ERR_BLOCKED_BY_CLIENT" in exc.error_text:  # refused (tools.guard), never a download
            raise
        if not await session.downloads.wait_begun(watch.mark, START_WAIT):
            raise
        download = (await watch.settle())[0]
    info = await tab.page.evaluate(
        "({url: location.href, title: document.title, "
        "status: (performance.getEntriesByType('navigation')[0] || {}).responseStatus || null})"
    )
    return NavigateOutput(url=info["url"], title=info["title"], status=info.get("status") or None,
                          download=download)


class HistoryInput(SnapshotAfter):
    timeout_ms: int = WaitTimeoutMs


class PageStateOutput(ToolOutput):
    url: str = Field(description="URL of the page now shown")
    title: str


async def _page_state(tab: Tab) -> PageStateOutput:
    info = await tab.page.evaluate("({url: location.href, title: document.title})", timeout=10)
    return PageStateOutput(url=info["url"], title=info["title"])


async def _wait_document_complete(tab: Tab) -> None:
    """Poll until the top document finished loading; a context torn down mid-poll is retried."""
    import trio

    from cdpdriver import ProtocolError

    while True:
        try:
            if await tab.page.evaluate("document.readyState", timeout=5) == "complete":
                return
        except ProtocolError:
            pass
        await trio.sleep(0.02)


async def _unless_dialog(tab: Tab, navigation: Any) -> None:
    """Leaving a page can open a beforeunload dialog, which blocks it: report, do not hang."""
    from .. import locate

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
    import trio

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


@tool("page_go_back", HistoryInput, PageStateOutput, records=True, effect="acts", open_world=True)
async def page_go_back(session: ToolSession, args: HistoryInput) -> PageStateOutput:
    """Go back in history and wait for the page."""
    return await _go_history(session, -1, args.timeout_ms)


@tool("page_go_forward", HistoryInput, PageStateOutput, records=True, effect="acts", open_world=True)
async def page_go_forward(session: ToolSession, args: HistoryInput) -> PageStateOutput:
    """Go forward in history and wait for the page."""
    return await _go_history(session, 1, args.timeout_ms)


class ReloadInput(SnapshotAfter):
    wait_until: LoadState = "load"
    timeout_ms: int = WaitTimeoutMs


@tool("page_reload", ReloadInput, PageStateOutput, records=True, effect="acts", open_world=True)
async def page_reload(session: ToolSession, args: ReloadInput) -> PageStateOutput:
    """Reload and wait until the page loads."""
    tab = await _tab(session)
    tab.frame = None
    await _unless_dialog(tab, tab.page.reload(wait_until=args.wait_until, timeout=args.timeout_ms / 1000))
    return await _page_state(tab)


# -- scrolling ------------------------------------------------------------------------------

class ScrollInput(ToolInput):
    direction: Literal["up", "down", "left", "right"]
    amount: int = Field(default=0, ge=0, description="Pixels; 0 = one screen")
    selector: str | None = Field(default=None, min_length=1)
    timeout_ms: int = TimeoutMs


class ScrollOutput(ToolOutput):
    message: str
    x: float = Field(description="Horizontal scroll position after scrolling, px")
    y: float = Field(description="Vertical scroll position after scrolling, px")
    max_x: float = Field(description="Largest possible x: x == max_x means the right edge is reached")
    max_y: float = Field(description="Largest possible y: y == max_y means the bottom is reached")


@tool("page_scroll", ScrollInput, ScrollOutput, records=True, effect="acts")
async def page_scroll(session: ToolSession, args: ScrollInput) -> ScrollOutput:
    """Scroll the page or an element; returns the position and its maximum."""
    from cdpdriver.scripts import call_expression, load_script

    from .. import locate

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


@tool("page_get_title", NoInput, TitleOutput, effect="reads")
async def page_get_title(session: ToolSession, args: NoInput) -> TitleOutput:
    """The current page's title."""
    tab = await session.tab()
    if tab.dialog is not None:  # the page is blocked; the browser still knows the title
        return TitleOutput(title=await tab.title())
    return TitleOutput(title=str(await tab.page.evaluate("document.title", timeout=10)))


class UrlOutput(ToolOutput):
    url: str


@tool("page_get_url", NoInput, UrlOutput, effect="reads")
async def page_get_url(session: ToolSession, args: NoInput) -> UrlOutput:
    """The current page's URL."""
    tab = await session.tab()
    if tab.dialog is not None:
        return UrlOutput(url=await tab.url())
    return UrlOutput(url=str(await tab.page.evaluate("location.href", timeout=10)))


class ContentInput(ToolInput):
    max_length: int = Field(default=0, ge=0)


class ContentOutput(ToolOutput):
    html: str = Field(description="Serialized HTML of the whole document, doctype included")
    length: int = Field(description="Length of the full HTML in characters")
    truncated: bool


@tool("page_get_content", ContentInput, ContentOutput, effect="reads")
async def page_get_content(session: ToolSession, args: ContentInput) -> ContentOutput:
    """The page's live HTML."""
    from cdpdriver.scripts import load_script

    tab = await _tab(session)
    html = str(await tab.page.evaluate(load_script("tools", "page_content"), timeout=30))
    cut = bool(args.max_length) and len(html) > args.max_length
    return ContentOutput(html=html[: args.max_length] if cut else html, length=len(html), truncated=cut)


class SetContentInput(ToolInput):
    html: str


@tool("page_set_content", SetContentInput, MessageOutput, records=True, effect="destroys", open_world=True)
async def page_set_content(session: ToolSession, args: SetContentInput) -> MessageOutput:
    """Replace the document with this HTML."""
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


@tool("page_get_viewport", NoInput, ViewportOutput, effect="reads")
async def page_get_viewport(session: ToolSession, args: NoInput) -> ViewportOutput:
    """The viewport size and device scale factor."""
    return await _viewport(await _tab(session))


class SetViewportInput(ToolInput):
    width: int = Field(ge=1, le=10_000)
    height: int = Field(ge=1, le=10_000)
    device_scale_factor: float | None = Field(default=None, gt=0, le=10)
    mobile: bool = False


@tool("page_set_viewport", SetViewportInput, ViewportOutput, effect="sets")
async def page_set_viewport(session: ToolSession, args: SetViewportInput) -> ViewportOutput:
    """Resize the viewport (responsive layouts)."""
    tab = await _tab(session)
    await tab.session.send("Emulation.setDeviceMetricsOverride", {
        "width": args.width, "height": args.height,
        "deviceScaleFactor": args.device_scale_factor or 0, "mobile": args.mobile,
    })
    return await _viewport(tab)


# -- tabs as pages --------------------------------------------------------------------------


class NewPageInput(ToolInput):
    url: str | None = Field(default=None, min_length=1)


class NewPageOutput(ToolOutput):
    message: str
    tab: TabInfo
    count: int = Field(description="Open tabs now")


@tool("page_new", NewPageInput, NewPageOutput, records=True, effect="acts", open_world=True)
async def page_new(session: ToolSession, args: NewPageInput) -> NewPageOutput:
    """Open a new tab and make it current."""
    tab = await session.new_tab(args.url or "about:blank")
    await bring_to_front(tab)
    targets = await sync_tabs(session)
    session.current = session.tabs.index(tab)
    info = tab_info(session, tab, targets)
    return NewPageOutput(message=f"opened tab {info.index} ({info.url})", tab=info, count=len(session.tabs))


class PageCountOutput(ToolOutput):
    count: int = Field(description="Open tabs, popups included")
    current_tab: int = Field(description="Index of the current tab")


@tool("page_get_count", NoInput, PageCountOutput, effect="reads")
async def page_get_count(session: ToolSession, args: NoInput) -> PageCountOutput:
    """How many tabs are open, and the current one."""
    await sync_tabs(session)
    return PageCountOutput(count=len(session.tabs), current_tab=session.current)


class PageCloseOutput(ToolOutput):
    message: str
    count: int = Field(description="Tabs still open")
    current_tab: int | None = Field(description="Index of the tab that is current now; null when none is left")


@tool("page_close", NoInput, PageCloseOutput, records=True, effect="destroys")
async def page_close(session: ToolSession, args: NoInput) -> PageCloseOutput:
    """Close the tab; another becomes current."""
    if not session.browser_launched or not session.tabs:
        raise ToolError("not_found", "no tab is open; page_new or page_navigate opens one")
    await sync_tabs(session)
    closed = await close_and_report(session, session.tabs[session.current])
    return PageCloseOutput(**closed.model_dump())


@tool("page_bring_to_front", NoInput, MessageOutput, effect="sets")
async def page_bring_to_front(session: ToolSession, args: NoInput) -> MessageOutput:
    """Bring the tab to the front."""
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
    media: Literal["screen", "print"] | None = None
    color_scheme: Literal["light", "dark", "no-preference"] | None = None
    reduced_motion: Literal["reduce", "no-preference"] | None = None
    forced_colors: Literal["active", "none"] | None = None
    contrast: Literal["more", "less", "no-preference"] | None = None
    reset: bool = False


class EmulateMediaOutput(ToolOutput):
    message: str
    settings: list[str] = Field(description="Every emulation now active in this tab, e.g. 'prefers-color-scheme: dark'")


@tool("page_emulate_media", EmulateMediaInput, EmulateMediaOutput, effect="sets")
async def page_emulate_media(session: ToolSession, args: EmulateMediaInput) -> EmulateMediaOutput:
    """Emulate print media, color scheme, reduced motion, forced colors or contrast (calls add up
    unless reset)."""
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
    latitude: float = Field(ge=-90, le=90)
    longitude: float = Field(ge=-180, le=180)
    accuracy: float = Field(default=10.0, ge=0)


@tool("page_set_geolocation", GeolocationInput, MessageOutput, effect="sets")
async def page_set_geolocation(session: ToolSession, args: GeolocationInput) -> MessageOutput:
    """Make geolocation report this position."""
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
