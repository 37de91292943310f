"""Pictures a tool produces: shown to the agent as an image block, or saved as a file.

Every tool whose product is a picture (``page_screenshot``, ``element_screenshot``) ends in
:func:`deliver`, so they agree: the structured output is the same small ``ImageOutput``
(never the pixels); the image itself rides beside it as an MCP image block, or, when
the agent asked for a file, is written under the output directory and only its path is
returned. Video and screencast frames are files by nature and do not come here.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field, model_serializer

from .models import ToolImage, ToolOutput

if TYPE_CHECKING:
    from .session import ToolSession

ImageDelivery = Literal["base64", "file"]
"""``base64``: an image block in the result (the name predates image blocks); ``file``: a path."""


class ImageOutput(ToolOutput):
    """The picture's facts; with ``if_changed`` and nothing visible changed, only ``changed: false``
    (and ``difference``): no image, no file (``tools.image_change``)."""

    path: str | None = Field(default=None, description="The saved file (format file); else the image is in the result")
    mime_type: str | None = None
    width: int | None = Field(default=None, description="Pixels")
    height: int | None = Field(default=None, description="Pixels")
    size: int | None = Field(default=None, description="Bytes")
    changed: bool | None = Field(default=None, exclude_if=lambda v: v is None, description=(
        "With if_changed: false when no more than that fraction of pixels changed since the last image "
        "returned (then no image)"))
    difference: float | None = Field(default=None, exclude_if=lambda v: v is None, description=(
        "With if_changed: the fraction of pixels that changed since the last image returned"))

    @model_serializer(mode="wrap")
    def _compact(self, handler: Any):  # no return hint: the schema stays the model's
        data = handler(self)
        return {"changed": False, "difference": self.difference} if self.changed is False else data


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


def deliver(session: ToolSession, image: bytes, mime_type: str, *, save: bool, path: str | None,
            prefix: str) -> ImageOutput:
    """The one ending of an image tool: a file under the output directory, or an image block."""
    from .recording import stamp

    width, height = image_size(image)
    if save:
        extension = "jpg" if mime_type == "image/jpeg" else "png"
        target = session.output_path(path, f"{prefix}-{stamp()}.{extension}")
        target.write_bytes(image)
        return ImageOutput(path=str(target), mime_type=mime_type, width=width, height=height, size=len(image))
    output = ImageOutput(mime_type=mime_type, width=width, height=height, size=len(image))
    return output.with_images(ToolImage(image, mime_type))
