"""``if_changed`` on screenshots: no image when nothing visible changed since the last one.

``page_screenshot`` and ``element_screenshot`` remember, per tab, the last image they returned
for each view (the viewport or whole page in one format; an element by its selector), the
last :data:`KEPT` of them. With ``if_changed`` a new capture is compared with it: equal bytes
are no change; otherwise both are decoded (Pillow) and a pixel counts as changed when one of
its channels differs by more than :data:`TOLERANCE` (encoder noise, anti-aliasing). When no
more than the threshold (a fraction of the pixels; ``true`` means :data:`DEFAULT_THRESHOLD`)
changed, the answer is ``{changed: false, difference}`` without an image, and the remembered
image stays the one the agent last saw, so changes too small one by one still add up.
"""

from __future__ import annotations

import io
from collections import OrderedDict
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import Field

if TYPE_CHECKING:
    from .images import ImageOutput
    from .session import ToolSession
    from .tab import Tab

KEPT = 16  # views remembered per tab
TOLERANCE = 16  # a channel must differ by more than this (of 255) for its pixel to count
DEFAULT_THRESHOLD = 0.0001  # one pixel in 10,000: a caret blink does not count, a ticked box does

# true (the default threshold), or the fraction of pixels that may change and still count as unchanged
IfChanged = bool | Annotated[float, Field(ge=0, le=1)] | None


def difference(before: bytes, after: bytes) -> float:
    """The fraction of pixels that changed visibly from ``before`` to ``after`` (1 if the size did)."""
    if before == after:
        return 0.0
    from PIL import Image, ImageChops

    with Image.open(io.BytesIO(before)) as old, Image.open(io.BytesIO(after)) as new:
        if old.size != new.size:
            return 1.0
        diff = ImageChops.difference(old.convert("RGB"), new.convert("RGB"))
        width, height = new.size
    red, green, blue = diff.split()
    strongest = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    changed = strongest.point(lambda v: 255 if v > TOLERANCE else 0).histogram()[255]
    return changed / max(1, width * height)


def _kept(tab: Tab) -> OrderedDict[Any, bytes]:
    return tab.extras.setdefault("screenshots", OrderedDict())  # type: ignore[no-any-return]


async def answer(session: ToolSession, tab: Tab, view: Any, image: bytes, mime_type: str, if_changed: IfChanged,
                 *, save: bool, path: str | None, prefix: str) -> ImageOutput:
    """The screenshot tool's answer: the image (delivered and remembered for ``view``), or, with
    ``if_changed`` and too little changed since the last image of ``view``, ``changed: false``."""
    import trio

    from .images import ImageOutput, deliver

    kept = _kept(tab)
    threshold = DEFAULT_THRESHOLD if if_changed is True else None if if_changed is False else if_changed
    changed = None
    if threshold is not None and view in kept:
        changed = await trio.to_thread.run_sync(difference, kept[view], image)
        if changed <= threshold:
            return ImageOutput(changed=False, difference=round(changed, 6))
    output = deliver(session, image, mime_type, save=save, path=path, prefix=prefix)
    kept[view] = image
    kept.move_to_end(view)
    while len(kept) > KEPT:
        kept.popitem(last=False)
    if threshold is not None:
        output.changed = True
        output.difference = None if changed is None else round(changed, 6)
    return output
