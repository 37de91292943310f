"""a11y-hidden-image-text: an image hidden from assistive technologies shows no text the page lacks.

ACT rule e88epe (Image not in the accessibility tree is decorative); WCAG 1.1.1 Non-text
Content (A): a null text alternative (technique H67) is for decoration only. Whether an image is
decorative is judgment in general (``a11y-judge-decorative-image`` asks the LLM judge about
every such image); this check decides the class where the picture says so itself: text that
nothing else on the page says.

It applies to visible images left out of the accessibility tree (``alt=""``, role ``none`` or
``presentation``, ``aria-hidden``, an ``svg`` or ``canvas`` with no name, role or content). The
text in the picture is read by OCR (:mod:`.image_text_reading`, shared with
:mod:`.image_name_text`), and looked for in the page's text: its text nodes, the title, and
the text alternatives, labels and titles of its other elements.

- **Passes** when OCR reads nothing sure, or when the page says any word read, leniently
  ("W3C" for "World Wide Web Consortium" too): the image repeats what assistive technologies
  get anyway.
- **Fails** when the picture is its text (its ink lies in the words read), OCR is sure of it,
  it says something in itself (an acronym, or two words or more), and nothing on the page says
  any of it: a logo or a line of set text that only sighted users get.
- **Needs review** when the words read are not the whole picture (a word on a drawing), or are
  one word ("Oops" over a "Page not found" heading may be a flourish): the picture may still
  be decoration.

Images inside links, buttons and other controls are not judged (the control's name is what
counts), nor images inside an element named with ``aria-label``/``aria-labelledby``. Cost: see
:mod:`.image_text_reading`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from .image_text_reading import IS_TEXT, SCAN, ImageReading, agrees, quoted, reading
from .probe import Probe
from .spec import InteractiveCheck, Outcome, Target


def verdict(image: ImageReading, page_text: str) -> tuple[str, str]:
    """(verdict, message) for a hidden image, given the page's text."""
    kind = image.kind
    if not image.sure:
        return "passed", f"OCR reads no text it is sure of in this {kind}, hidden from assistive technologies."
    if agrees(image, page_text, short=False):
        return "passed", f"OCR reads {quoted(image.sure_text)} in this {kind}, and the page says it in text."
    seen = (
        f"This {kind} is hidden from assistive technologies, yet OCR reads {quoted(image.sure_text)} in it "
        f"({image.confidence:.0f}% confidence), which the page says nowhere else"
    )
    if image.text_share >= IS_TEXT and image.substantial:
        return "failed", (
            f"{seen}: the text is all the picture shows, and only sighted users get it. Give the image a "
            "text alternative that says it, or put the text in the page."
        )
    part = "The words are part of a larger picture" if image.text_share < IS_TEXT else "It is one word"
    return "cantTell", f"{seen}. {part}: check that the image is decoration, or give it a text alternative."


async def run(probe: Probe) -> AsyncIterator[Outcome]:
    found = await reading(probe)
    if not found.done:
        return
    for image in found.images:
        if image.image.get("exposure") != "hidden":
            continue
        decided, message = verdict(image, found.page_text)
        yield Outcome(Target.from_page(image.image), decided, message)  # type: ignore[arg-type]


CHECK = InteractiveCheck(
    rule_id="a11y-hidden-image-text",
    act_rules=("e88epe",),
    criteria=("1.1.1",),
    level="A",
    since="2.0",
    impact="serious",
    description="Ensures an image hidden from assistive technologies shows no text the page does not give them (read by OCR)",
    help="An image that shows text must not be hidden from assistive technologies unless the page says that text",
    run=run,
    scan=SCAN,
)
