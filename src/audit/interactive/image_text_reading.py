"""What the text in a page's images says, set beside what assistive technologies are told.

Shared by :mod:`.image_name_text` (an image's name says something its picture contradicts)
and :mod:`.hidden_image_text` (an image left out of the accessibility tree shows text the page
says nowhere else). One reading per page (:func:`reading`, kept for the probe): the first of
the two checks makes it, the other reads it.

The candidates come from one page-side call (``js/image_name_candidates.js``): visible ``img``
(loaded), ``canvas`` and outermost ``svg`` elements of at least 32 x 16 CSS px that are not part
of a control, a link or a label and not inside an element named with ``aria-label`` or
``aria-labelledby`` (the control's or the container's name is what counts there), at most
:data:`LIMITS` ``images`` of them in document order. They are either *named*, exposed with an
accessible name of a few words that claims something a picture can contradict (it is the logo
of something: "ERCIM logo"; or it names an acronym: "W3C"), or *hidden* from assistive
technologies (``alt=""``, role ``none``/``presentation``, ``aria-hidden``, an ``svg`` or
``canvas`` with no name, no role and no content). Other images are not read: a long
description, or a name that claims nothing checkable, cannot be contradicted by a word read.

Each is drawn by the page at its displayed size (enlarged when small), from its own pixels
(an ``svg`` from a copy of its markup, an image of another origin from its file's bytes in the
browser's memory), edge to edge, and again inside a margin of its commonest colour when its
ink touches an edge (text there reads better so; text filling the image reads better without). Pictures with
less than :data:`LIMITS` ``flat`` of their pixels in one colour (photographs) are not read.
One ``tesseract`` run reads all the drawings (:func:`~.image_of_text.recognise`).

A drawing's words are *read* at 30 % confidence or more, *sure* at :data:`SURE` or more with
three letters or digits and the look of a word or an acronym ("W3C", "HTML"). The image *is*
its text when :data:`IS_TEXT` of its ink (cells of a grid where a pixel differs from the
commonest colour) lies inside the boxes of its sure words: a wordmark, a line of set text, not
a picture with a word in it. Comparisons with names and page text are lenient, so that an OCR
slip is never read as a contradiction: case, punctuation and the digits and letters OCR
confuses (0/O, 1/l/I, 3/S, 5/S, 8/B…) aside, a word one letter off, two words run together,
an abbreviation of the name's words ("W3C" for "World Wide Web Consortium", a digit counting
the letter before it; "IBM" for "International Business Machines"; "fb" within "Facebook").

Cost: one page-side call (a millisecond on a page without such images); with them, drawing
them (a few ms each) and one ``tesseract`` run, about 150 ms plus 50 to 300 ms a drawing,
bounded by :data:`~.image_of_text.OCR_CPU_SECONDS` of CPU and the phase's time.
"""

from __future__ import annotations

import base64
import csv
import io
import re
import shutil
import weakref
from dataclasses import dataclass, field
from typing import Any

from cdpdriver.scripts import load_script

from .image_of_text import FILE_LIMIT, _type, recognise, wordlike
from .probe import Probe
from .scans import first_read
from .spec import Scan

#: The page-side part: images at most, elements scanned, smallest box (CSS px), how images are
#: drawn (as image_of_text draws them, larger ones shrunk further: recognition time), the words
#: a name may have, how much page text is read, how long an image may take to decode, the
#: share of one colour below which a picture is not read, the ink grid's cells a side and the
#: difference from the commonest colour that counts as ink, the margin of the second drawing.
LIMITS = {
    "images": 4,
    "scan": 600,
    "minWidth": 32,
    "minHeight": 16,
    "maxScale": 3,
    "targetHeight": 120,
    "maxSide": 600,
    "nameWords": 8,
    "textChars": 20000,
    "loadMs": 500,
    "flat": 0.3,
    "grid": 48,
    "ink": 64,
    "padShare": 0.1,
    "padPx": 8,
}
#: A word is read at this confidence (0-100), and sure at SURE.
READ = 30
SURE = 80
#: The share of an image's ink inside its sure words' boxes for the image to be its text.
IS_TEXT = 0.8

_EDGES = "\"'“”‘’«»()[]{}.,:;!?¡¿*•·-–—_/\\|®©™"
_ACRONYM = re.compile(r"(?=(?:[^A-Z]*[A-Z]){2})[A-Z][A-Z0-9&]{1,7}")
_CONFUSED = str.maketrans(
    {"0": "o", "1": "l", "i": "l", "|": "l", "!": "l", "3": "s", "5": "s", "$": "s", "8": "b",
     "2": "z", "6": "g", "9": "g", "7": "t"}
)
_SMALL_WORDS = frozenset({"of", "the", "and", "for", "a", "an", "at", "in", "on", "to", "de", "du", "la", "le", "&"})

#: The first read of both checks, made with the other checks' as the phase begins (:mod:`.scans`):
#: a page without a candidate image needs nothing more.
SCAN = Scan(load_script(__package__, "image_name_candidates"), (LIMITS,), idle=lambda found: not (found or {}).get("images"))


@dataclass(frozen=True)
class Word:
    text: str
    confidence: float
    #: Its box in the edge-to-edge drawing (x, y, width, height).
    box: tuple[float, float, float, float]


@dataclass
class ImageReading:
    """One image (what the page-side call said of it) and what OCR read in it."""

    image: dict[str, Any]
    words: list[Word] = field(default_factory=list)
    #: The share of its ink inside the boxes of its sure words.
    text_share: float = 0.0

    @property
    def sure(self) -> list[Word]:
        return [w for w in self.words if sure_word(w)]

    @property
    def sure_text(self) -> str:
        seen: list[str] = []
        for word in self.sure:
            if word.text.lower() not in (s.lower() for s in seen):
                seen.append(word.text)
        return " ".join(seen)

    @property
    def kind(self) -> str:
        return {"img": "image", "svg": "SVG image"}.get(str(self.image["kind"]), str(self.image["kind"]))

    @property
    def substantial(self) -> bool:
        """Whether its sure words say something in themselves: an acronym, or two words or
        more (one word alone, "Oops", may be a flourish of what the page says otherwise)."""
        sure = self.sure
        return any(_ACRONYM.fullmatch(w.text) for w in sure) or len({w.text.lower() for w in sure}) >= 2

    @property
    def confidence(self) -> float:
        sure = self.sure
        return sum(w.confidence for w in sure) / len(sure) if sure else 0.0


@dataclass
class Reading:
    """A page's images, read; ``done`` is false when nothing could be read (no tesseract, no
    answer in time), and then nothing may be concluded."""

    images: list[ImageReading] = field(default_factory=list)
    page_text: str = ""
    done: bool = False


def sure_word(word: Word) -> bool:
    alnum = sum(ch.isalnum() for ch in word.text)
    return (
        word.confidence >= SURE
        and alnum >= 3
        and any(ch.isalpha() for ch in word.text)
        and (wordlike(word.text) or bool(_ACRONYM.fullmatch(word.text)))
    )


def _normal(text: str) -> list[str]:
    return re.sub(r"[^\w]+", " ", text.lower().translate(_CONFUSED)).split()


def _near(a: str, b: str) -> bool:
    """At most one letter added, dropped or changed."""
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) <= 1
    short, long = sorted((a, b), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def _subsequence(part: str, whole: str) -> bool:
    it = iter(whole)
    return all(ch in it for ch in part)


def _spelled(token: str) -> set[str]:
    """The letters an acronym stands for: its letters, and with a digit counting the letter
    before it ("W3C": "wwwc")."""
    letters = re.sub(r"\d", "", token.lower())
    counted = re.sub(r"([a-z])(\d)", lambda m: m.group(1) * int(m.group(2) or 1), token.lower())
    return {letters, re.sub(r"\d", "", counted)} - {""}


def said(token: str, text: str, *, short: bool) -> bool:
    """Whether ``text`` says ``token`` (a word OCR read), leniently (see the module docstring);
    ``short`` for a name of a few words, where a word's letters in order within one of its
    words count too ("fb" in "Facebook")."""
    word = "".join(_normal(token))
    if len(word) < 2:
        return False
    words = _normal(text)
    if word in words or any(a + b == word for a, b in zip(words, words[1:], strict=False)):
        return True
    if len(word) >= 4 and any(_near(word, w) for w in words):
        return True
    raw = token.strip(_EDGES)
    if not (_ACRONYM.fullmatch(raw) or raw.isupper() or short):
        return False
    plain = re.sub(r"[^\w]+", " ", text.lower()).split()
    for spelled in _spelled(raw):
        if len(spelled) < 2:
            continue
        for skip in (False, True):
            kept = [w for w in plain if not (skip and w in _SMALL_WORDS)]
            initials = "".join(w[0] for w in kept)
            if spelled in initials:
                return True
        if short and any(w[0] == spelled[0] and _subsequence(spelled, w) for w in plain):
            return True
    return False


#: Words of a name that say what kind of thing an image is, not what it shows.
_GENERIC = frozenset({"logo", "logotype", "wordmark", "image", "picture", "icon", "photo", "graphic", "banner"})


def agrees(image: ImageReading, text: str, *, short: bool) -> bool:
    """Whether ``text`` (an image's name, or the page's text when ``short`` is false) says a
    word read in the image, or one of its acronyms stands for the words read ("BBC" for a
    picture reading "British Broadcasting Corporation")."""
    if any(said(word.text, text, short=short) for word in image.words if len(word.text) >= (2 if short else 3)):
        return True
    read = " ".join(word.text for word in image.words)
    if short:
        own = [w for w in re.findall(r"[^\W_]+", text) if len(w) >= 2 and w.lower() not in _GENERIC]
    else:
        own = sorted({w for w in re.findall(r"[^\W_]+", text) if _ACRONYM.fullmatch(w)})[:200]
    return any(said(word, read, short=short) for word in own)


def _share(image: dict[str, Any], pixels: dict[str, Any], words: list[Word]) -> float:
    """The share of the image's ink cells inside its sure words' boxes (a cell's margin around
    each box)."""
    grid = str(pixels.get("grid") or "")
    columns, rows = int(pixels.get("gridWidth") or 1), int(pixels.get("gridHeight") or 1)
    width, height = float(image["drawWidth"]), float(image["drawHeight"])
    ink = {i for i, cell in enumerate(grid) if cell == "1"}
    if not ink:
        return 0.0
    covered: set[int] = set()
    for word in words:
        if not sure_word(word):
            continue
        x, y, w, h = word.box
        left = max(0, int(x * columns / width) - 1)
        right = min(columns - 1, int((x + w) * columns / width) + 1)
        top = max(0, int(y * rows / height) - 1)
        bottom = min(rows - 1, int((y + h) * rows / height) + 1)
        covered.update(r * columns + c for r in range(top, bottom + 1) for c in range(left, right + 1))
    return len(ink & covered) / len(ink)


def parse(tsv: str, count: int, pages: list[tuple[int, int]]) -> list[list[Word]]:
    """The words read in each of ``count`` images, from tesseract's TSV of their drawings:
    ``pages`` says which image each page is and the margin it was drawn in (0 for the drawing
    edge to edge), and the boxes are given in the edge-to-edge drawing's pixels."""
    found: list[list[Word]] = [[] for _ in range(count)]
    for row in csv.DictReader(io.StringIO(tsv), delimiter="\t", quoting=csv.QUOTE_NONE):
        try:
            page, level, confidence = int(row["page_num"]), int(row["level"]), float(row["conf"])
            box = [float(row[key]) for key in ("left", "top", "width", "height")]
        except (KeyError, TypeError, ValueError):
            continue
        text = (row.get("text") or "").strip().strip(_EDGES)
        if level != 5 or not 1 <= page <= len(pages) or not text or confidence < READ:
            continue
        index, shift = pages[page - 1]
        found[index].append(Word(text, confidence, (box[0] - shift, box[1] - shift, box[2], box[3])))
    return found


async def _drawn(probe: Probe, images: list[dict[str, Any]]) -> list[dict[str, Any] | None]:
    items: list[dict[str, Any] | None] = []
    for image in images:
        item = {key: image[key] for key in ("target", "kind", "drawWidth", "drawHeight", "background")}
        if image["kind"] != "img" or image["local"]:
            items.append(item)
            continue
        data = await probe.resource(str(image["src"]), FILE_LIMIT)
        items.append({**item, "data": base64.b64encode(data).decode("ascii"), "type": _type(data)} if data else None)
    sent = [item for item in items if item is not None]
    if not sent:
        return [None for _ in items]
    drawn = iter(await probe.call(load_script(__package__, "image_name_pixels"), sent, LIMITS) or [])
    return [next(drawn, None) if item is not None else None for item in items]


async def _read(probe: Probe) -> Reading:
    made = Reading()
    if shutil.which("tesseract") is None:
        return made
    found = await first_read(probe, SCAN) or {}
    images = list(found.get("images") or [])
    made.page_text = str(found.get("pageText") or "")
    if not images:
        made.done = True
        return made
    drawn = [
        (image, pixels)
        for image, pixels in zip(images, await _drawn(probe, images), strict=True)
        if pixels and pixels.get("png")
    ]
    if not drawn:
        made.done = True
        return made
    shots: list[bytes] = []
    pages: list[tuple[int, int]] = []
    for index, (_, pixels) in enumerate(drawn):
        shots.append(base64.b64decode(pixels["png"]))
        pages.append((index, 0))
        if pixels.get("padded"):
            shots.append(base64.b64decode(pixels["padded"]))
            pages.append((index, int(pixels.get("pad") or 0)))
    tsv = await recognise(shots, max(0.0, probe.remaining() - 0.3))
    if tsv is None:
        return made  # no answer in time: nothing can be concluded
    words = parse(tsv, len(drawn), pages)
    for (image, pixels), read in zip(drawn, words, strict=True):
        made.images.append(ImageReading(image, read, _share(image, pixels, read)))
    made.done = True
    return made


_READINGS: weakref.WeakKeyDictionary[Probe, Reading] = weakref.WeakKeyDictionary()


async def reading(probe: Probe) -> Reading:
    """The page's images, read: made on the first call for ``probe``, then the same."""
    found = _READINGS.get(probe)
    if found is None:
        found = _READINGS[probe] = await _read(probe)
    return found


def quoted(text: str) -> str:
    return f'"{text[:80]}…"' if len(text) > 80 else f'"{text}"'
