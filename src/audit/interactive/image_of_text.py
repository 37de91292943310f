"""a11y-image-of-text: images whose pixels are text that should be real text.

ACT rule 0va7u6 (HTML images contain no text); WCAG 1.4.5 Images of Text (AA) and 1.4.9
Images of Text (No Exception) (AAA).

Text baked into an image cannot be resized without blurring, restyled, reflowed or read by
every assistive technology. axe-core cannot see pixels; the judgment check
``a11y-judge-image-text`` asks the LLM judge about every image. This check decides the clear
cases without one, by optical character recognition with Debian's ``tesseract`` (one process
for all of a page's images, TSV output with a confidence per word).

It reads each image's own pixels, not a screenshot of the page: the page draws the image on a
canvas at its displayed size (enlarged when small, shrunk when large), on the colour behind it
(``js/image_pixels.js``); an image of another origin, whose canvas the page may not read, is
drawn from its file's bytes, taken from the browser's memory. So text a page writes over a
picture (real text) is never read as the picture's, nothing scrolls, and images below the
fold are read as well as the others. Only images with a quarter or more of their pixels in
one flat colour are read (set text, buttons, banners, diagrams; a photograph has none), and
image buttons whatever they look like.

Applies to the image resources a page renders: ``img`` elements (decorative ones, ``alt=""``,
too: text a sighted user sees is information, and an empty alternative keeps it from
assistive technologies as well), image buttons, ``role=img`` elements with no text of their
own painted by one image file, and empty elements painted by a CSS background image (a
sprite, drawn at an offset, is left out); ``aria-hidden`` and inline SVG (its text is real
text) are left out. They must be rendered and at
least 40 x 12 CSS px; at most 8 a page, likeliest to hold text first (image buttons, long text
alternatives, banner shapes, PNG/GIF/SVG files). A word counts when tesseract is at least 80 %
sure of it and it looks like a word (letters only, with a vowel, three letters or more, or a
common two-letter word). An image fails when it shows three different such words or more,
with a mean confidence of 85 % or more, making up most of what was read, on a flat
background (40 % or more of its pixels in one colour): clearly set text. Two different words,
or one that its short text alternative repeats (a transcription), are left to review, as is
text on a busy picture; so is an image on a flat background where tesseract is unsure of a
word (30 % or more) that the text beside the image says too: ornate lettering that repeats a
heading or a greeting. A logo (its name, file or class says logo or brand, it links to the
home page, or sits in a link in the page's banner) passes: logotypes are essential. So does
text in a picture whose name says it is a screenshot, chart, diagram, map, photograph or the
like, or describes far more than the text read (a diagram's labels): that text is part of
other visual content. Without ``tesseract`` on the machine the check does nothing.

Cost: a few ms on a page without such images; with them, drawing them (a few ms each) and one
``tesseract`` run of about 150 ms of CPU plus 50 to 300 ms an image, bounded by
:data:`OCR_CPU_SECONDS` of CPU and the phase's time.
"""

from __future__ import annotations

import base64
import csv
import io
import os
import re
import resource
import shutil
import tempfile
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import trio

from cdpdriver.scripts import load_script

from .probe import Probe
from .scans import first_read
from .spec import InteractiveCheck, Outcome, Scan, Target

#: What the page-side part reads: images at most, elements scanned, smallest box (CSS px),
#: how images are drawn for recognition (small ones enlarged up to maxScale towards
#: targetHeight px, for tesseract reads text about 20 px high or more best; large ones shrunk to
#: maxSide px, so that recognition time stays bounded) and how long an image may take to decode.
LIMITS = {
    "images": 8,
    "scan": 400,
    "minWidth": 40,
    "minHeight": 12,
    "maxScale": 3,
    "targetHeight": 120,
    "maxSide": 1000,
    "loadMs": 500,
}
#: Images read by OCR: those with at least this share of their pixels in one flat colour (set
#: text, buttons, banners, diagrams; a photograph has none, and recognition costs 50-300 ms of
#: CPU an image), and image buttons whatever they look like.
DRAWN = {"loadMs": LIMITS["loadMs"], "flat": 0.25}
#: The largest image file read from the browser's memory for a cross-origin image.
FILE_LIMIT = 3_000_000
#: The whole recognition of a page's images, at most, in CPU seconds of the tesseract process
#: (whole seconds: the kernel's RLIMIT_CPU ends it). A CPU bound, not a wall-clock one, so
#: that a page gets the same verdict on a busy machine as on an idle one; the wall clock
#: bounds it only through the phase's time.
OCR_CPU_SECONDS = 3
#: A word counts at this confidence (0-100); a failure needs this mean over its words.
WORD_CONFIDENCE = 80
#: A word read with less confidence is only a hint: review when the text beside the image has it.
UNSURE_CONFIDENCE = 30
UNSURE_LETTERS = 4
FAIL_CONFIDENCE = 85
#: A failure needs this many words, this share of what was read, and this share of the image in
#: one flat colour (the background of set text; a photograph has none).
FAIL_WORDS = 3
FAIL_SHARE = 0.6
FAIL_FLAT = 0.4
#: Review needs this many different words making up this share of what was read, or one word
#: at this confidence that a text alternative of a few words (a transcription) has.
REVIEW_WORDS = 2
REVIEW_SHARE = 0.4
NAMED_CONFIDENCE = 90
TRANSCRIPT_WORDS = 8
#: A text alternative of more words than this many per word read, plus the margin, describes a
#: picture with some text in it (a diagram, a photograph), not text.
DESCRIBED = 4
DESCRIBED_MARGIN = 8

_LETTERS = re.compile(r"^(?:[A-Z]?[a-z]+|[A-Z]+)(?:['’-][A-Za-z]+)?$")
_VOWEL = re.compile(r"[aeiouyAEIOUY]")
_CONSONANT_RUN = re.compile(r"[^aeiouyAEIOUY'’-]{5,}")
_NAME_WORD = re.compile(r"[^\W\d_]+")
_EDGES = "\"'“”‘’«»()[]{}.,:;!?¡¿*•·-–—_/\\|"
SHORT_WORDS = frozenset(
    {
        "a",
        "i",
        "am",
        "an",
        "as",
        "at",
        "be",
        "by",
        "do",
        "go",
        "he",
        "if",
        "in",
        "is",
        "it",
        "me",
        "my",
        "no",
        "of",
        "on",
        "or",
        "so",
        "to",
        "up",
        "us",
        "we",
    }
)


@dataclass(frozen=True)
class Word:
    text: str
    confidence: float


@dataclass(frozen=True)
class Reading:
    """What tesseract read in one image: its words that look like words, and all it read."""

    words: tuple[Word, ...]
    tokens: int
    #: Words that look like words, read with less than WORD_CONFIDENCE (hints, never proof).
    unsure: tuple[Word, ...] = ()

    @property
    def text(self) -> str:
        return " ".join(w.text for w in self.words)

    @property
    def confidence(self) -> float:
        return sum(w.confidence for w in self.words) / len(self.words) if self.words else 0.0

    @property
    def share(self) -> float:
        return len(self.words) / self.tokens if self.tokens else 0.0


def wordlike(text: str) -> bool:
    """Whether ``text`` (edge punctuation stripped) looks like a word of a language rather
    than noise read off a picture."""
    if text.lower() in SHORT_WORDS:
        return len(text) > 1 or text in ("a", "I")
    return (
        len(text) >= 3
        and bool(_LETTERS.match(text))
        and bool(_VOWEL.search(text))
        and not _CONSONANT_RUN.search(text)
    )


def parse(tsv: str, count: int) -> list[Reading]:
    """One reading for each of ``count`` images from tesseract's TSV, whose ``page_num`` is
    the image's place in the list."""
    words: list[list[Word]] = [[] for _ in range(count)]
    unsure: list[list[Word]] = [[] for _ in range(count)]
    tokens = [0 for _ in range(count)]
    for row in csv.DictReader(io.StringIO(tsv), delimiter="\t", quoting=csv.QUOTE_NONE):
        try:
            page, level, confidence = int(row["page_num"]), int(row["level"]), float(row["conf"])
        except (KeyError, TypeError, ValueError):
            continue
        text = (row.get("text") or "").strip().strip(_EDGES)
        if level != 5 or not 1 <= page <= count or not text:
            continue
        tokens[page - 1] += 1
        if confidence >= WORD_CONFIDENCE and wordlike(text):
            words[page - 1].append(Word(text, confidence))
        elif confidence >= UNSURE_CONFIDENCE and wordlike(text):
            unsure[page - 1].append(Word(text, confidence))
    return [Reading(tuple(w), t, tuple(u)) for w, t, u in zip(words, tokens, unsure, strict=True)]


def _cpu_limit(seconds: int) -> Callable[[], None]:
    """A ``preexec_fn`` that caps the child's CPU time: SIGXCPU at ``seconds``, SIGKILL a
    second later."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))

    return limit


async def recognise(shots: list[bytes], timeout: float, cpu_seconds: int = OCR_CPU_SECONDS) -> str | None:
    """tesseract's TSV for ``shots`` (PNGs), read in one process; None when it is missing,
    fails, uses more than ``cpu_seconds`` of CPU, or is still running after ``timeout``
    seconds of wall time (the phase's remaining time: on a loaded machine the same CPU takes
    longer, and the verdict should not depend on that as long as the phase has time)."""
    binary = shutil.which("tesseract")
    if binary is None or not shots:
        return None
    with tempfile.TemporaryDirectory(prefix="a11y-ocr-") as folder:
        paths = []
        for index, shot in enumerate(shots):
            path = Path(folder, f"{index}.png")
            path.write_bytes(shot)
            paths.append(str(path))
        listing = Path(folder, "images.txt")
        listing.write_text("\n".join(paths) + "\n", encoding="utf-8")
        command = [binary, str(listing), "stdout", "-l", "eng", "--psm", "11", "tsv"]
        env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
        with trio.move_on_after(timeout):
            done = await trio.run_process(
                command, capture_stdout=True, capture_stderr=True, check=False, env=env,
                preexec_fn=_cpu_limit(cpu_seconds),
            )
            if done.returncode == 0:
                return done.stdout.decode("utf-8", "replace")
    return None


def _quoted(reading: Reading) -> str:
    text = reading.text
    return f'"{text[:80]}…"' if len(text) > 80 else f'"{text}"'


def _named(reading: Reading, name: str) -> bool:
    """Whether a word read with high confidence is also in the image's short text alternative:
    the author transcribed the image's text (one word may be all that reads of it)."""
    said = {w.lower() for w in _NAME_WORD.findall(name)}
    return len(_NAME_WORD.findall(name)) <= TRANSCRIPT_WORDS and any(
        w.text.lower() in said
        for w in reading.words
        if len(w.text) >= 3 and w.confidence >= NAMED_CONFIDENCE
    )


def _figure(image: dict[str, Any], reading: Reading) -> bool:
    """Whether the image is a picture whose text is part of other visual content: its name
    says so (a screenshot, a chart), or describes far more than the text read (a diagram's
    labels, a sign in a photograph)."""
    words = len(re.findall(r"[^\W_]+", str(image.get("name") or "")))
    return bool(image["figure"]) or words >= DESCRIBED * len(reading.words) + DESCRIBED_MARGIN


def verdict(image: dict[str, Any], reading: Reading, flat: float) -> tuple[str, str] | None:
    """(verdict, message) for one image (``flat``: the share of its pixels in its commonest
    colour), or None when it shows no text worth a word."""
    count = len(reading.words)
    distinct = {w.text.lower() for w in reading.words}
    if not any(len(w) >= 3 for w in distinct):
        return _echo(image, reading, flat)
    named = _named(reading, str(image.get("name") or ""))
    if not named and (len(distinct) < REVIEW_WORDS or reading.share < REVIEW_SHARE):
        return _echo(image, reading, flat)
    seen = (
        f"OCR reads {_quoted(reading)} in this {image['kind']} "
        f"({count} word{'s' if count > 1 else ''}, {reading.confidence:.0f}% confidence)"
    )
    if image["logo"]:
        return "passed", f"{seen}: a logo, whose text is essential."
    if _figure(image, reading):
        return "passed", f"{seen}: part of a picture its text alternative describes."
    clear = (
        len(distinct) >= FAIL_WORDS
        and reading.confidence >= FAIL_CONFIDENCE
        and reading.share >= FAIL_SHARE
        and flat >= FAIL_FLAT
    )
    if clear:
        return "failed", (
            f"Image of text: {seen}. Text in an image cannot be resized, restyled or reflowed: "
            "use real text styled with CSS, unless this presentation is essential."
        )
    return "cantTell", (
        f"{seen}. If the text is a significant part of the image and its presentation not "
        "essential (a logo), use real text styled with CSS instead."
    )


def _echo(image: dict[str, Any], reading: Reading, flat: float) -> tuple[str, str] | None:
    """Review for an image on a flat background that may show (tesseract is unsure) a word the
    text beside it says: ornate lettering repeating a heading or greeting; else None."""
    beside = {w.lower() for w in _NAME_WORD.findall(str(image.get("context") or ""))}
    echoed = [
        w.text for w in reading.unsure if len(w.text) >= UNSURE_LETTERS and w.text.lower() in beside
    ]
    if image["logo"] or flat < FAIL_FLAT or not echoed:
        return None
    return "cantTell", (
        f'OCR may read "{" ".join(echoed[:6])}" in this {image["kind"]} (unsure), words the text '
        "beside it says too. If the image shows text, use real text styled with CSS instead."
    )


def _type(data: bytes) -> str:
    """The media type of an image file by its first bytes (what a blob needs to decode SVG)."""
    head = data[:256].lstrip()
    if head.startswith((b"<svg", b"<?xml", b"<!--", b"<!DOCTYPE svg")):
        return "image/svg+xml"
    return "application/octet-stream"  # raster formats are recognised by their content


async def _pixels(probe: Probe, images: list[dict[str, Any]]) -> list[dict[str, Any] | None]:
    """Each image drawn by the page (``js/image_pixels.js``): ``{png, flat}`` or None. An
    image of another origin is drawn from its file's bytes, read from the browser's memory
    (the page cannot read such pixels itself)."""
    items: list[dict[str, Any] | None] = []
    for image in images:
        item = {
            **{key: image[key] for key in ("width", "height", "background")},
            "always": image["kind"] == "image button",
        }
        if image["local"]:
            items.append({**item, "target": image["target"], "src": image["src"]})
            continue
        data = await probe.resource(str(image["src"]), FILE_LIMIT)
        items.append(
            {**item, "data": base64.b64encode(data).decode("ascii"), "type": _type(data)}
            if data
            else None
        )
    sent = [item for item in items if item is not None]
    if not sent:
        return [None for _ in items]
    drawn = iter(await probe.call(load_script(__package__, "image_pixels"), sent, DRAWN) or [])
    return [next(drawn, None) if item is not None else None for item in items]


#: The first read, made with the other checks' as the phase begins (:mod:`.scans`).
SCAN = Scan(load_script(__package__, "image_text_candidates"), (LIMITS,))


async def run(probe: Probe) -> AsyncIterator[Outcome]:
    if shutil.which("tesseract") is None:
        return
    images = await first_read(probe, SCAN) or []
    logos = [image for image in images if image["logo"]]  # their text is essential: nothing to read
    others = [image for image in images if not image["logo"]]
    drawn = [
        (image, pixels)
        for image, pixels in zip(others, await _pixels(probe, others), strict=True)
        if pixels
    ]
    if not logos and not drawn:
        return  # no image the rule applies to, or none whose pixels could be had
    read = [(image, pixels) for image, pixels in drawn if pixels.get("png")]
    flagged: list[Outcome] = []
    if read:
        shots = [base64.b64decode(pixels["png"]) for _, pixels in read]
        tsv = await recognise(shots, max(0.0, probe.remaining() - 0.2))
        if tsv is None:
            return  # no answer in time: nothing can be said
        readings = parse(tsv, len(read))
        for (image, pixels), reading in zip(read, readings, strict=True):
            decided = verdict(image, reading, float(pixels.get("flat") or 0))
            if decided is not None and decided[0] != "passed":
                flagged.append(Outcome(Target.from_page(image), decided[0], decided[1]))  # type: ignore[arg-type]
    for outcome in flagged:
        yield outcome
    if not flagged:
        first = drawn[0][0] if drawn else logos[0]
        yield Outcome(
            Target.from_page(first),
            "passed",
            (
                f"{len(drawn) + len(logos)} image(s): {len(read)} read by OCR with no text to replace, "
                f"{len(drawn) - len(read)} photograph-like (not read), {len(logos)} logo(s)."
            ),
        )


CHECK = InteractiveCheck(
    rule_id="a11y-image-of-text",
    act_rules=("0va7u6",),
    criteria=("1.4.5", "1.4.9"),
    level="AA",
    since="2.0",
    impact="moderate",
    description="Ensures images do not show text that could be real text (read by optical character recognition)",
    help="Images must not contain text that could be real text, unless it is a logo or essential",
    run=run,
    scan=SCAN,
)
