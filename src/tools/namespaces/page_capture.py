"""page_screenshot and page_pdf: the current page as an image or a printed document.

Apart from the other page_ tools because they share their own concern: binary
output that goes to the agent as base64 or, to keep large results out of the
reply, to a file under the output directory.
"""

from __future__ import annotations

import base64
import struct
import time
from typing import Any, Literal

from pydantic import Field, field_validator

from cdpdriver import ProtocolError

from .. import locate
from ..errors import ToolError
from ..models import ToolInput, ToolOutput
from ..registry import tool
from ..session import ToolSession
from ..tab import Tab


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
    target = session.output_path(args.path, f"page-{_stamp()}.pdf")
    target.write_bytes(pdf)
    return PdfOutput(path=str(target), size=len(pdf))
