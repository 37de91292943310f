"""Which human language a page's text is in, offline, for the language checks
(:mod:`.page_language`, :mod:`.part_language`).

Identification is py3langid's naive Bayes model over byte n-grams (shipped inside the
package, about 4.5 MB), restricted to :data:`LANGUAGES`, the languages common on the web that
the model knows well. It is read once per process (:mod:`audit.langid_model`: about 1 s of CPU
and 100 MB), on a background thread that the language checks start as their page begins to
load (their ``ahead``), so a process that never runs them never pays for it (``a11y audit``
starts the read earlier still, at process start); a check that finds it still loading waits
for it (:func:`loaded`). Restricting it matters: with
all its 140 labels the model spreads short English over English and Nigerian Pidgin, and short
Dutch over Dutch and Afrikaans, and so is never sure of either. A declared language outside
that set is not judged at all (Luxembourgish, Afrikaans, a made-up subtag).

The model's probabilities are calibrated to the length of the text (its scores are tempered
by the square root of the byte count), so a sentence rarely reaches the confidence a paragraph
does. :func:`judge` decides on that, and on how much text there is: a failure needs a
confident identification of a language other than the declared one, with the declared one
all but ruled out, over at least :data:`FAIL_LETTERS` letters; a weaker but clear lead over
the declared language on a few words is left to a person (``cantTell``). Languages that the
model cannot tell apart reliably (Serbian, Croatian and Bosnian; Danish, Norwegian and
Swedish; Malay and Indonesian; Czech and Slovak; Bulgarian and Macedonian) never fail against
each other, and subtags that name the same language (``nb``/``no``/``nn``, ``iw``/``he``,
``cmn``/``zh``) are one language. Latin is a sink: placeholder text (lorem ipsum) is no
human language to declare.
"""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import trio

from cdpdriver.scripts import load_script

from .. import langid_model
from ..langid_model import LANGUAGES

if TYPE_CHECKING:
    from .probe import Probe

#: Subtags that name the same written language as one of :data:`LANGUAGES` (deprecated codes,
#: macrolanguage members, the model's own second label for Norwegian).
SAME: dict[str, str] = {
    "nb": "no", "nn": "no", "iw": "he", "in": "id", "mo": "ro", "fil": "tl", "zsm": "ms",
    "cmn": "zh", "yue": "zh", "wuu": "zh", "hak": "zh", "nan": "zh", "arb": "ar", "pes": "fa",
    "prs": "fa", "ekk": "et", "lvs": "lv", "swh": "sw", "uzn": "uz", "khk": "mn", "npi": "ne",
    "pan": "pa", "nob": "no", "nno": "no",
}
#: Languages the model confuses with each other: one is never failed for reading as another.
CLOSE: tuple[frozenset[str], ...] = (
    frozenset({"sr", "hr", "bs"}), frozenset({"da", "no", "sv"}), frozenset({"ms", "id"}),
    frozenset({"cs", "sk"}), frozenset({"bg", "mk"}), frozenset({"es", "gl"}), frozenset({"pt", "gl"}),
    frozenset({"hi", "mr", "ne"}),
)
#: Identified as these, text is in no language a page declares (lorem ipsum is pseudo-Latin).
SINKS = frozenset({"la"})

#: Letters (a character of a script without spaces between words counts as two) and words a
#: failure needs; fewer can only be left to review.
FAIL_LETTERS = 40
FAIL_WORDS = 6
#: Below these, text says nothing about its language.
MIN_LETTERS = 15
MIN_WORDS = 3
#: The identified language's probability a failure needs, and the most the declared one may have.
FAIL_TOP = 0.9
FAIL_DECLARED = 0.02
#: For review: the identified language at least this likely, and this many times the declared one.
REVIEW_TOP = 0.4
REVIEW_RATIO = 2.5

_SCRIPTIO_CONTINUA = re.compile(r"[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
_WORD = re.compile(r"[^\W\d_]+")
_SUBTAG = re.compile(r"[a-z]{2,3}")


Verdict = Literal["failed", "cantTell", "passed"]


def canonical(lang: str) -> str | None:
    """The language of ``lang`` (a BCP 47 tag) as :data:`LANGUAGES` names it, or None when its
    primary subtag is none the identifier can judge (empty, ``i-``/``x-`` tags, ``eng``,
    a language outside the set)."""
    primary = lang.strip().lower().replace("_", "-").split("-")[0]
    if not _SUBTAG.fullmatch(primary):
        return None
    primary = SAME.get(primary, primary)
    return primary if primary in LANGUAGES and primary not in SINKS else None


def name(code: str) -> str:
    return LANGUAGES.get(code, code)


def close(a: str, b: str) -> bool:
    return any(a in group and b in group for group in CLOSE)


def measure(text: str) -> tuple[int, int]:
    """(letters, words) of ``text``; in scripts written without spaces between words a
    character counts as two letters and half a word."""
    dense = len(_SCRIPTIO_CONTINUA.findall(text))
    letters = sum(ch.isalpha() for ch in text) + dense
    words = len(_WORD.findall(_SCRIPTIO_CONTINUA.sub(" ", text))) + dense // 2
    return letters, words


def lowercase_share(text: str) -> float:
    """The share of words of a cased script that start in lower case (1.0 when none is
    cased): low for lists of names, titles and addresses."""
    cased = [w for w in _WORD.findall(text) if w[0].lower() != w[0].upper()]
    if not cased:
        return 1.0
    return sum(w[0].islower() for w in cased) / len(cased)


#: How long a check waits for the model still loading (a process's first page) before it
#: gives that page no verdict: the load is about a second of CPU, several on a busy machine.
LOAD_WAIT = 15.0


async def loaded() -> bool:
    """Whether the model is loaded, waiting (at most :data:`LOAD_WAIT` s) while it loads.

    A process's first page meets a model still loading (the CLI's one page always does);
    not waiting would give such a page no language verdict on a busy machine and one on an
    idle one, so the same page would get different results from run to run."""
    if langid_model.ready():
        return True
    langid_model.preload()
    with trio.move_on_after(LOAD_WAIT):
        await trio.to_thread.run_sync(langid_model.identifier, abandon_on_cancel=True)
    return langid_model.ready()


def rank(text: str) -> dict[str, float]:
    """Probability per language of :data:`LANGUAGES` (Norwegian's two labels summed); blocks
    while the model loads, so call it from a worker thread."""
    merged: dict[str, float] = {}
    for code, p in langid_model.identifier().rank(text):
        key = SAME.get(code, code)
        merged[key] = merged.get(key, 0.0) + float(p)
    return merged


async def rank_all(texts: list[str]) -> list[dict[str, float]]:
    """:func:`rank` of each text, on a worker thread (the first call loads the model)."""
    if not texts:
        return []
    return await trio.to_thread.run_sync(lambda: [rank(t) for t in texts], abandon_on_cancel=True)


@dataclass(frozen=True)
class Reading:
    """What the identifier made of some text declared to be in ``declared``."""

    declared: str
    top: str
    p_top: float
    p_declared: float
    letters: int
    words: int

    @property
    def described(self) -> str:
        return f"{name(self.top)} ({self.top}, {self.p_top:.0%} likely; {name(self.declared)} {self.p_declared:.0%})"


def read(declared: str, text: str, ranked: dict[str, float]) -> Reading | None:
    """The reading of ``text`` for ``declared`` (a canonical code), or None when the text is
    too short to say anything or reads as a sink."""
    letters, words = measure(text)
    if letters < MIN_LETTERS or words < MIN_WORDS or not ranked:
        return None
    top = max(ranked, key=lambda code: ranked[code])
    if top in SINKS:
        return None
    return Reading(declared, top, ranked[top], ranked.get(declared, 0.0), letters, words)


def judge(reading: Reading) -> Verdict:
    """``failed`` when the text is clearly in another language than declared, ``cantTell``
    when it leans clearly to another one on little text (or to a close relative), else
    ``passed``."""
    if reading.top == reading.declared:
        return "passed"
    confident = reading.p_top >= FAIL_TOP and reading.letters >= FAIL_LETTERS
    if close(reading.top, reading.declared):
        return "cantTell" if confident and reading.p_declared <= FAIL_DECLARED else "passed"
    if confident and reading.words >= FAIL_WORDS and reading.p_declared <= FAIL_DECLARED:
        return "failed"
    if reading.p_top >= REVIEW_TOP and reading.p_top >= REVIEW_RATIO * reading.p_declared:
        return "cantTell"
    return "passed"


#: Characters of a scope, and of a passage, that identification reads (the model's cost grows
#: with the text; a few hundred characters already identify a language surely).
SCOPE_CHARS = 2000
PASSAGE_CHARS = 400


def _texts(pieces: list[dict[str, Any]]) -> list[str]:
    """A scope's pieces of two words or more (single words, such as menu items and one-word
    titles, are noise to the model), or all of them when that is all there is."""
    long = [p["text"] for p in pieces if measure(p["text"])[1] >= 2]
    return long or [p["text"] for p in pieces]


def _sample(texts: list[str], limit: int) -> str:
    """Up to ``limit`` characters of ``texts``, taken across all of them (every n-th) rather
    than from the top only, where a cookie banner or a header in another language may sit."""
    if sum(len(t) + 1 for t in texts) <= limit:
        return " ".join(texts)
    step = max(1, round(sum(len(t) + 1 for t in texts) / limit))
    kept: list[str] = []
    size = 0
    for offset in range(step):
        for text in texts[offset::step]:
            if size >= limit:
                break
            kept.append(text[: limit - size])
            size += len(kept[-1]) + 1
    return " ".join(kept)


def scope_text(pieces: list[dict[str, Any]]) -> str:
    """The text of a scope for identification: up to :data:`SCOPE_CHARS`, sampled across it."""
    return _sample(_texts(pieces), SCOPE_CHARS)


def halves(pieces: list[dict[str, Any]]) -> tuple[str, str]:
    """The scope's text in two halves (its first and its second half of characters, each
    sampled to half of :data:`SCOPE_CHARS`): a page whose text reads as another language
    throughout fails, one whose halves disagree (an English banner over a German page) is
    left to a person."""
    texts = _texts(pieces)
    total = sum(len(t) for t in texts)
    first: list[str] = []
    size = 0
    for text in texts:
        if size >= total / 2:
            break
        first.append(text)
        size += len(text)
    return _sample(first, SCOPE_CHARS // 2), _sample(texts[len(first):], SCOPE_CHARS // 2)


def excerpt(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


#: What the page-side collector keeps: characters per scope, scopes (elements with lang), text
#: nodes read, names read, the words that make a block a passage worth a look of its own, and
#: how many such passages it describes.
LIMITS = {"chars": 6000, "scopes": 40, "nodes": 20000, "names": 300, "passageWords": 12, "passages": 40}

_collected: weakref.WeakKeyDictionary[Probe, dict[str, Any]] = weakref.WeakKeyDictionary()


async def collect(probe: Probe) -> dict[str, Any]:
    """The page's text grouped by the lang it inherits (``js/language_texts.js``), read once
    per phase and shared by both language checks."""
    found = _collected.get(probe)
    if found is None:
        found = await probe.call(load_script(__package__, "language_texts"), LIMITS) or {"scopes": []}
        _collected[probe] = found
    return found

