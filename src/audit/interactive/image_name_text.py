"""a11y-image-name-text: an image's name does not contradict the text its picture shows.

ACT rule qt1vmo (Image accessible name is descriptive); WCAG 1.1.1 Non-text Content (A),
technique G94 (a short text alternative that serves the same purpose). Whether a name
describes an image is judgment in general (``a11y-judge-image-name`` asks the LLM judge about
every image); this check decides the one class where the picture itself contradicts the name:
an image whose picture is text (a wordmark, set text) named for something else.

It applies to exposed images whose short name claims something checkable: that the image is
the logo of something ("ERCIM logo"), or an acronym ("W3C"). The text in the picture is read
by OCR (:mod:`.image_text_reading`, shared with :mod:`.hidden_image_text`).

- **Passes** when OCR reads nothing sure, or when the name (or the image's title or
  description) says any word read, leniently: "W3C logo" for a picture reading "W3C", "World
  Wide Web Consortium" too, "IBM" for "International Business Machines".
- **Fails** when the picture is its text (its ink lies in the words read), OCR is sure of it,
  and the name says none of it: a picture reading "W3C" named "ERCIM logo" tells a screen
  reader user it is another organisation's logo.
- **Needs review** when the words read are not the whole picture (a word in a drawing, a logo
  whose emblem is most of it): the name may describe the rest.

Images inside links, buttons and other controls are not judged (a functional image is named
for what it does: a logo link named "Home" is right), nor images inside an element named
with ``aria-label``/``aria-labelledby``, whose name replaces theirs. Cost: see
:mod:`.image_text_reading`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from .image_text_reading import IS_TEXT, SCAN, ImageReading, agrees, quoted, reading
from .probe import Probe
from .spec import InteractiveCheck, Outcome, Target


def verdict(image: ImageReading) -> tuple[str, str]:
    """(verdict, message) for a named image."""
    info = image.image
    name = str(info.get("name") or "")
    known = f"{name} {info.get('also') or ''}"
    if not image.sure:
        return "passed", f'OCR reads no text it is sure of in this {image.kind} named "{name}".'
    if agrees(image, known, short=True):
        return "passed", f'OCR reads {quoted(image.sure_text)} in this {image.kind}, and its name "{name}" says it.'
    seen = (
        f'OCR reads {quoted(image.sure_text)} in this {image.kind} ({image.confidence:.0f}% confidence), '
        f'and its accessible name "{name}" says none of it'
    )
    if image.text_share >= IS_TEXT:
        return "failed", (
            f"{seen}, though that text is all the picture shows: the name tells screen reader users "
            "the image is something it is not. Name the image for what it shows."
        )
    return "cantTell", (
        f"{seen}. The words are part of a larger picture: check that the name describes the image "
        "(a logo's name is usually the text it shows)."
    )


async def run(probe: Probe) -> AsyncIterator[Outcome]:
    found = await reading(probe)
    if not found.done:
        return
    for image in found.images:
        if image.image.get("exposure") != "named":
            continue
        decided, message = verdict(image)
        yield Outcome(Target.from_page(image.image), decided, message)  # type: ignore[arg-type]


CHECK = InteractiveCheck(
    rule_id="a11y-image-name-text",
    act_rules=("qt1vmo",),
    criteria=("1.1.1",),
    level="A",
    since="2.0",
    impact="serious",
    description="Ensures an image's accessible name does not contradict the text its picture shows (read by OCR)",
    help="An image whose picture is text must not be named for something else",
    run=run,
    scan=SCAN,
)
