"""page_screenshot and page_pdf: the current page as an image or a printed document.

Apart from the other page_ tools because they share their own concern: binary output,
an image block the agent sees (``tools.images``) or a file under the output directory.
"""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field, field_validator

from ..errors import ToolError
from ..image_change import IfChanged
from ..images import ImageDelivery, ImageOutput
from ..models import ToolInput, ToolOutput
from ..registry import tool

if TYPE_CHECKING:
    from ..session import ToolSession
    from ..tab import Tab


class ScreenshotInput(ToolInput):
    format: ImageDelivery | None = Field(default=None, description="base64 (default without path): an image in the result; file: saved")
    path: str | None = Field(default=None, min_length=1)
    full_page: bool = False
    image_type: Literal["png", "jpeg"] = "png"
    quality: int | None = Field(default=None, ge=0, le=100)
    if_changed: IfChanged = None  # tools.image_change


async def _full_page_clip(tab: Tab) -> dict[str, Any]:
    metrics = await tab.session.send("Page.getLayoutMetrics", timeout=10)
    content = metrics.get("cssContentSize") or metrics.get("contentSize") or {}
    return {"x": 0, "y": 0, "width": max(1, content.get("width", 1)),
            "height": max(1, content.get("height", 1)), "scale": 1}


@tool("page_screenshot", ScreenshotInput, ImageOutput, effect="acts")
async def page_screenshot(session: ToolSession, args: ScreenshotInput) -> ImageOutput:
    """Screenshot the viewport or whole page: an image you see, or a file."""
    from .. import image_change

    tab = await session.tab()
    save = args.format == "file" or (args.format is None and args.path is not None)
    params: dict[str, Any] = {"format": args.image_type, "captureBeyondViewport": args.full_page}
    if args.image_type == "jpeg" and args.quality is not None:
        params["quality"] = args.quality
    if args.image_type == "png" and not save:
        # An image block costs the agent its pixels, not its bytes: a fast encoding takes about
        # a fifth off the capture for a PNG some 40% larger (the same pixels); a file stays small.
        params["optimizeForSpeed"] = True
    if args.full_page:
        params["clip"] = await _full_page_clip(tab)
    reply = await tab.session.send("Page.captureScreenshot", params, timeout=60)
    return await image_change.answer(session, tab, ("page", args.full_page, args.image_type),
                                     base64.b64decode(reply["data"]), f"image/{args.image_type}", args.if_changed,
                                     save=save, path=args.path, prefix="screenshot")


PAPER_INCHES = {
    "Letter": (8.5, 11), "Legal": (8.5, 14), "Tabloid": (11, 17), "Ledger": (17, 11),
    "A0": (33.1, 46.8), "A1": (23.4, 33.1), "A2": (16.54, 23.4), "A3": (11.7, 16.54),
    "A4": (8.27, 11.7), "A5": (5.83, 8.27), "A6": (4.13, 5.83),
}
PaperFormat = Literal["Letter", "Legal", "Tabloid", "Ledger", "A0", "A1", "A2", "A3", "A4", "A5", "A6"]


class PdfInput(ToolInput):
    path: str | None = Field(default=None, min_length=1)
    scale: float = Field(default=1.0, ge=0.1, le=2.0)
    print_background: bool = False
    landscape: bool = False
    format: PaperFormat = "Letter"

    @field_validator("format", mode="before")
    @classmethod
    def _paper_case(cls, value: Any) -> Any:
        if isinstance(value, str):
            return next((name for name in PAPER_INCHES if name.lower() == value.lower()), value)
        return value


class PdfOutput(ToolOutput):
    path: str = Field(description="The PDF file under the output directory")
    size: int = Field(description="File size in bytes")


@tool("page_pdf", PdfInput, PdfOutput, effect="acts", long=True)
async def page_pdf(session: ToolSession, args: PdfInput) -> PdfOutput:
    """Print the page to a PDF file."""
    from cdpdriver import ProtocolError

    from .. import locate
    from ..recording import stamp

    tab = await session.tab()
    locate.check_no_dialog(tab)  # printing behind an open dialog would block
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
    target = session.output_path(args.path, f"page-{stamp()}.pdf")
    target.write_bytes(pdf)
    return PdfOutput(path=str(target), size=len(pdf))
