"""page_: navigation, page state, screenshots, PDF, viewport, emulation and the page map.

Page tools act on the current tab's top-level document (frame_select does not
redirect them), except ``page_scroll`` and ``page_inspect``, which work in the
current frame so their selectors and scroll positions match what the element
tools see.
"""

from __future__ import annotations

import base64
import json
import struct
import time
from typing import Any, Literal

import trio
from pydantic import Field, field_validator, model_serializer

from cdpdriver import ProtocolError

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
    await tab.page.navigate(args.url, wait_until=args.wait_until, timeout=args.timeout_ms / 1000)
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

SCROLL_FUNCTION = """
function(direction, amount) {
  const el = this && this.nodeType === 1 ? this : null;
  const box = el || document.scrollingElement || document.documentElement;
  const vertical = direction === 'up' || direction === 'down';
  const page = el ? (vertical ? el.clientHeight : el.clientWidth) : (vertical ? innerHeight : innerWidth);
  const step = (amount || page) * (direction === 'up' || direction === 'left' ? -1 : 1);
  (el || window).scrollBy({left: vertical ? 0 : step, top: vertical ? step : 0, behavior: 'instant'});
  return {x: el ? el.scrollLeft : scrollX, y: el ? el.scrollTop : scrollY, step: Math.abs(step),
          max_x: Math.max(0, box.scrollWidth - box.clientWidth),
          max_y: Math.max(0, box.scrollHeight - box.clientHeight)};
}
"""


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
        pos = await element.call(SCROLL_FUNCTION, args.direction, args.amount)
        where = f"element {args.selector!r}"
    else:
        pos = await locate.evaluate(
            session, f"({SCROLL_FUNCTION}).call(null, {args.direction!r}, {args.amount})"
        )
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


CONTENT_EXPRESSION = """(() => {
  const d = document.doctype;
  const doctype = d ? new XMLSerializer().serializeToString(d) + '\\n' : '';
  return doctype + (document.documentElement ? document.documentElement.outerHTML : '');
})()"""


@tool("page_get_content", ContentInput, ContentOutput)
async def page_get_content(session: ToolSession, args: ContentInput) -> ContentOutput:
    """Return the current page's full HTML as it is now (live DOM, not the original source).
    Pages can be large: set max_length to cap it, or use page_inspect for a compact map."""
    tab = await _tab(session)
    html = str(await tab.page.evaluate(CONTENT_EXPRESSION, timeout=30))
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


# -- screenshot and PDF ---------------------------------------------------------------------


def _stamp() -> str:
    return time.strftime("%Y%m%d-%H%M%S") + f"-{int(time.time() * 1000) % 1000:03d}"


def image_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG or JPEG header (0, 0 if it is neither)."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return struct.unpack(">II", data[16:24])
    i = 2
    while data[:2] == b"\xff\xd8" and i + 9 <= len(data) and data[i] == 0xFF:
        marker = data[i + 1]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", data[i + 5:i + 9])
            return width, height
        i += 2 + struct.unpack(">H", data[i + 2:i + 4])[0]
    return 0, 0


class ScreenshotInput(ToolInput):
    format: Literal["base64", "file"] | None = Field(
        default=None, description="base64: return the image in data; file: save it under the output "
                                  "directory and return path. Default: file when path is given, else base64")
    path: str | None = Field(default=None, min_length=1, description="File name inside the output directory")
    full_page: bool = Field(default=False, description="Capture the whole scrollable page, not just the viewport")
    image_type: Literal["png", "jpeg"] = Field(default="png", description="Image encoding")
    quality: int | None = Field(default=None, ge=0, le=100, description="JPEG quality 0-100 (jpeg only)")


class ScreenshotOutput(ToolOutput):
    data: str | None = Field(default=None, description="Base64 image (format base64 only)")
    path: str | None = Field(default=None, description="Saved file (format file only)")
    mime_type: str
    width: int = Field(description="Image width in device pixels")
    height: int = Field(description="Image height in device pixels")
    size: int = Field(description="Image size in bytes")


async def _full_page_clip(tab: Tab) -> dict[str, Any]:
    metrics = await tab.session.send("Page.getLayoutMetrics", timeout=10)
    content = metrics.get("cssContentSize") or metrics.get("contentSize") or {}
    return {"x": 0, "y": 0, "width": max(1, content.get("width", 1)),
            "height": max(1, content.get("height", 1)), "scale": 1}


@tool("page_screenshot", ScreenshotInput, ScreenshotOutput)
async def page_screenshot(session: ToolSession, args: ScreenshotInput) -> ScreenshotOutput:
    """Take a screenshot of the current tab's viewport (or the whole page with full_page).
    format base64 returns the PNG/JPEG in data; format file (or a path) saves it under the
    output directory and returns path instead, which keeps large images out of the reply."""
    tab = await session.tab()
    params: dict[str, Any] = {"format": args.image_type, "captureBeyondViewport": args.full_page}
    if args.image_type == "jpeg" and args.quality is not None:
        params["quality"] = args.quality
    if args.full_page:
        params["clip"] = await _full_page_clip(tab)
    reply = await tab.session.send("Page.captureScreenshot", params, timeout=60)
    image = base64.b64decode(reply["data"])
    width, height = image_size(image)
    mime = f"image/{args.image_type}"
    if args.format == "file" or (args.format is None and args.path):
        target = session.output_path(args.path, f"screenshot-{_stamp()}.{'jpg' if args.image_type == 'jpeg' else 'png'}")
        target.write_bytes(image)
        return ScreenshotOutput(path=str(target), mime_type=mime, width=width, height=height, size=len(image))
    return ScreenshotOutput(data=reply["data"], mime_type=mime, width=width, height=height, size=len(image))


PAPER_INCHES = {
    "Letter": (8.5, 11), "Legal": (8.5, 14), "Tabloid": (11, 17), "Ledger": (17, 11),
    "A0": (33.1, 46.8), "A1": (23.4, 33.1), "A2": (16.54, 23.4), "A3": (11.7, 16.54),
    "A4": (8.27, 11.7), "A5": (5.83, 8.27), "A6": (4.13, 5.83),
}
PaperFormat = Literal["Letter", "Legal", "Tabloid", "Ledger", "A0", "A1", "A2", "A3", "A4", "A5", "A6"]


class PdfInput(ToolInput):
    path: str | None = Field(default=None, min_length=1, description="File name inside the output directory")
    scale: float = Field(default=1.0, ge=0.1, le=2.0, description="Rendering scale, 0.1 to 2")
    print_background: bool = Field(default=False, description="Include background colours and images")
    landscape: bool = Field(default=False, description="Landscape orientation")
    format: PaperFormat = Field(default="Letter", description="Paper size")

    @field_validator("format", mode="before")
    @classmethod
    def _paper_case(cls, value: Any) -> Any:
        if isinstance(value, str):
            return next((name for name in PAPER_INCHES if name.lower() == value.lower()), value)
        return value


class PdfOutput(ToolOutput):
    path: str = Field(description="The PDF file under the output directory")
    size: int = Field(description="File size in bytes")


@tool("page_pdf", PdfInput, PdfOutput)
async def page_pdf(session: ToolSession, args: PdfInput) -> PdfOutput:
    """Print the current page to a PDF file under the output directory (print media styles
    apply). Choose paper format (Letter, A4…), landscape, scale and whether backgrounds print.
    Returns the file path and size."""
    tab = await _tab(session)
    width, height = PAPER_INCHES[args.format]
    try:
        reply = await tab.session.send("Page.printToPDF", {
            "scale": args.scale, "printBackground": args.print_background, "landscape": args.landscape,
            "paperWidth": width, "paperHeight": height,
        }, timeout=120)
    except ProtocolError as exc:
        raise ToolError("cdp_error", f"the browser could not print this page to PDF: {exc}; "
                                     "printing needs a headless browser (browser_launch headless true)") from None
    pdf = base64.b64decode(reply["data"])
    target = session.output_path(args.path, f"page-{_stamp()}.pdf")
    target.write_bytes(pdf)
    return PdfOutput(path=str(target), size=len(pdf))


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


# -- the page map ---------------------------------------------------------------------------

INSPECT_FUNCTION = r"""
(opts) => {
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const clip = (s, n) => { s = norm(s); return s.length > n ? s.slice(0, n - 1) + '…' : s; };
  const KINDS = [
    ['button', 'button, input[type=button i], input[type=submit i], input[type=reset i], input[type=image i], summary, [role=button]'],
    ['link', 'a[href], area[href], [role=link]'],
    ['select', 'select, [role=combobox], [role=listbox]'],
    ['input', 'input:not([type=hidden i]), textarea, [contenteditable=""], [contenteditable=true i], [role=textbox], ' +
              '[role=searchbox], [role=checkbox], [role=radio], [role=switch], [role=slider], [role=spinbutton]'],
    ['heading', 'h1, h2, h3, h4, h5, h6, [role=heading]'],
    ['image', 'img, [role=img]'],
  ];
  const ANY = KINDS.map((k) => k[1]).join(', ');
  const kindOf = (el) => { for (const [kind, sel] of KINDS) if (el.matches(sel)) return kind; return null; };
  const ROLE_OF_TYPE = {checkbox: 'checkbox', radio: 'radio', range: 'slider', number: 'spinbutton', search: 'searchbox'};
  const roleOf = (el, kind) => {
    const explicit = norm(el.getAttribute('role')).split(' ')[0];
    if (explicit) return explicit;
    if (el.localName === 'input') return ROLE_OF_TYPE[(el.type || '').toLowerCase()] || (kind === 'button' ? 'button' : 'textbox');
    if (el.localName === 'textarea') return 'textbox';
    if (el.localName === 'select') return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
    return {link: 'link', heading: 'heading', image: 'img', button: 'button'}[kind] || kind;
  };
  const byIds = (el, ids) => ids.split(/\s+/).map((id) => el.getRootNode().getElementById?.(id))
    .filter(Boolean).map((n) => n.textContent).join(' ');
  const nameOf = (el) => {
    const ids = el.getAttribute('aria-labelledby');
    const named = (ids && norm(byIds(el, ids))) || norm(el.getAttribute('aria-label'))
      || (el.labels && el.labels.length ? norm([...el.labels].map((l) => l.innerText || l.textContent).join(' ')) : '')
      || norm(el.getAttribute('alt'));
    if (named) return named;
    if (el.localName === 'input') {
      if (['button', 'submit', 'reset'].includes(el.type)) return norm(el.value) || (el.type === 'submit' ? 'Submit' : '');
      return norm(el.getAttribute('title') || el.getAttribute('placeholder'));
    }
    if (['textarea', 'select', 'img'].includes(el.localName)) return norm(el.getAttribute('title'));
    return norm(el.innerText !== undefined ? el.innerText : el.textContent) || norm(el.getAttribute('title'));
  };
  const visible = (el) => {
    if (el.checkVisibility && !el.checkVisibility({visibilityProperty: true})) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const unique = (root, sel, el) => {
    try { const m = root.querySelectorAll(sel); return m.length === 1 && m[0] === el; } catch (e) { return false; }
  };
  const quote = (v) => '"' + v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\a ') + '"';
  const ATTRS = ['data-testid', 'data-test', 'data-cy', 'name', 'aria-label', 'placeholder', 'alt', 'title', 'href'];
  const localSelector = (el, root) => {
    const tag = CSS.escape(el.localName);
    if (el.id && unique(root, '#' + CSS.escape(el.id), el)) return '#' + CSS.escape(el.id);
    for (const attr of ATTRS) {
      const v = el.getAttribute(attr);
      if (!v || v.length > 80) continue;
      const sel = (attr.startsWith('data-') ? '' : tag) + '[' + attr + '=' + quote(v) + ']';
      if (unique(root, sel, el)) return sel;
    }
    let path = '';
    for (let n = el; n && n.nodeType === 1; n = n.parentElement) {
      let seg = CSS.escape(n.localName);
      if (n !== el && n.id && unique(root, '#' + CSS.escape(n.id), n)) seg = '#' + CSS.escape(n.id);
      else {
        const siblings = n.parentNode ? [...n.parentNode.children].filter((c) => c.localName === n.localName) : [n];
        if (siblings.length > 1) seg += ':nth-of-type(' + (siblings.indexOf(n) + 1) + ')';
      }
      path = path ? seg + ' > ' + path : seg;
      if (unique(root, path, el)) return path;
    }
    return path;
  };
  const selectorOf = (el) => {
    const root = el.getRootNode();
    const local = localSelector(el, root);
    return root instanceof ShadowRoot ? selectorOf(root.host) + ' >>> ' + local : local;
  };
  const describe = (el, kind) => {
    const item = {kind, selector: selectorOf(el), tag: el.localName};
    const role = roleOf(el, kind);
    if (role !== kind && !(kind === 'image' && role === 'img')) item.role = role;
    const name = clip(nameOf(el), 80);
    if (name) item.name = name;
    if (kind === 'input' || kind === 'select') {
      if (el.localName === 'input') item.type = (el.type || 'text').toLowerCase();
      if (el.localName === 'select') {
        const chosen = [...el.selectedOptions].map((o) => norm(o.label || o.text));
        if (chosen.length) item.value = clip(chosen.join(', '), 80);
        item.options = el.options.length;
      } else if ('value' in el && el.value) {
        item.value = item.type === 'password' ? '••••' : clip(el.value, 80);
      } else if (el.isContentEditable && norm(el.innerText)) {
        item.value = clip(el.innerText, 80);
      }
      if (el.placeholder) item.placeholder = clip(el.placeholder, 80);
      if (item.type === 'checkbox' || item.type === 'radio') item.checked = el.checked;
      else if (el.hasAttribute('aria-checked')) item.checked = el.getAttribute('aria-checked') === 'true';
      if (el.required) item.required = true;
    }
    if (kind === 'heading') item.level = Number(el.getAttribute('aria-level')) || Number(el.localName.slice(1)) || 2;
    if (kind === 'link' && el.getAttribute('href')) item.href = clip(el.getAttribute('href'), 120);
    if (kind === 'image' && !name && el.getAttribute('src')) item.src = clip(el.getAttribute('src').split('/').pop(), 60);
    if (el.disabled || el.getAttribute('aria-disabled') === 'true') item.disabled = true;
    return item;
  };
  const items = [], frames = [];
  let total = 0;
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.matches('iframe, frame') && visible(el) && frames.length < 20) {
        frames.push({selector: selectorOf(el), name: el.getAttribute('name') || el.id || '',
                     src: clip(el.getAttribute('src') || '', 120)});
      } else if (el.matches(ANY)) {
        const kind = kindOf(el);
        if (opts.include[kind] && visible(el)) {
          total += 1;
          if (items.length < opts.max) items.push(describe(el, kind));
        }
      }
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);
  return {url: location.href, title: document.title, items, total, frames};
}
"""


class InspectInput(ToolInput):
    include_buttons: bool = Field(default=True, description="List buttons")
    include_links: bool = Field(default=True, description="List links")
    include_inputs: bool = Field(default=True, description="List text fields, checkboxes, radios and similar")
    include_selects: bool = Field(default=True, description="List selects, comboboxes and listboxes")
    include_headings: bool = Field(default=True, description="List headings")
    include_images: bool = Field(default=True, description="List images")
    max_items: int = Field(default=50, ge=1, le=1000, description="Stop listing after this many elements")


class InspectItem(ToolOutput):
    """One element; fields that do not apply are left out to keep the map short."""

    kind: str = Field(description="button, link, input, select, heading or image")
    selector: str = Field(description="CSS selector that matches exactly this element")
    tag: str
    role: str | None = Field(default=None, description="ARIA role when it differs from kind")
    name: str | None = Field(default=None, description="Accessible name or visible text")
    type: str | None = Field(default=None, description="input type")
    value: str | None = Field(default=None, description="Current value (passwords masked)")
    placeholder: str | None = None
    checked: bool | None = None
    required: bool | None = None
    disabled: bool | None = None
    options: int | None = Field(default=None, description="Number of options of a select")
    level: int | None = Field(default=None, description="Heading level")
    href: str | None = None
    src: str | None = Field(default=None, description="Image file name, for images without a name")

    @model_serializer(mode="wrap")
    def _compact(self, handler: Any):  # no return hint: the schema stays the model's
        return {k: v for k, v in handler(self).items() if v is not None}


class InspectFrame(ToolOutput):
    selector: str
    name: str = Field(description="name or id of the iframe, usable with frame_select")
    src: str


class InspectOutput(ToolOutput):
    url: str
    title: str
    items: list[InspectItem] = Field(description="Visible elements in document order")
    count: int = Field(description="Elements listed")
    total: int = Field(description="Matching visible elements on the page")
    truncated: bool = Field(description="True when max_items cut the list")
    frames: list[InspectFrame] = Field(description="Visible iframes; call frame_select to work inside one")


@tool("page_inspect", InspectInput, InspectOutput)
async def page_inspect(session: ToolSession, args: InspectInput) -> InspectOutput:
    """Map the visible page: buttons, links, inputs, selects, headings and images in document
    order, each with a CSS selector that matches exactly that element (usable as the selector
    of element tools), its role, accessible name and, for fields, type/value/placeholder.
    Works in the current frame and lists iframes to frame_select. Call it first on a new page."""
    include = {"button": args.include_buttons, "link": args.include_links, "input": args.include_inputs,
               "select": args.include_selects, "heading": args.include_headings, "image": args.include_images}
    found = await locate.evaluate(session, f"({INSPECT_FUNCTION})({{include: {json.dumps(include)}, max: {args.max_items}}})",
                                  timeout=60)
    items = [InspectItem(**item) for item in found["items"]]
    return InspectOutput(url=found["url"], title=found["title"], items=items, count=len(items),
                         total=found["total"], truncated=found["total"] > len(items),
                         frames=[InspectFrame(**f) for f in found["frames"]])

