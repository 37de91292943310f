"""a11y-part-language: each part of the page in another language says so, and says it right.

ACT rule off6ek (HTML element language subtag matches language); WCAG 3.1.2 Language of Parts
(AA).

axe-core's ``valid-lang`` checks that a ``lang`` inside the page is a known language, never
that it is the language of the text it covers, nor that a passage in another language has a
``lang`` at all. This check reads, for each element in body with a ``lang`` attribute, the
text that inherits that lang (visible text and text in the accessibility tree, text
alternatives included; subtrees with a lang of their own, code and ``translate="no"`` left
out) and identifies its language offline (:mod:`.language_id`); and it reads each block of
text of 12 words or more on its own (a paragraph, a list item, a quotation), against the lang
it inherits.

An element fails when its text, at least 40 letters, is identified as another language with
at least 90 % probability and the declared language at 2 % or less; a clear lead of another
language on a few words ("Bonne année !" marked as Dutch) is left to review, as are close
relatives (Croatian marked as Serbian). A passage with no lang of its own fails when it is 20
words or more, mostly lower-case words (not a list of names or a title), identified as
another language than the one it inherits at 99 % with that one at 0.5 % or less; from 12
words, at 95 %, it is left to review. Names, loanwords and short quotations stay below those
thresholds. Passages are not judged where the text around them already does not read as its
declared language (that is the page language's or the element's own failure). At most 10
elements are reported per page. Cost: shares the page language check's page-side call; a few
ms of identification on a worker thread.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from .. import langid_model
from .language_id import (
    PASSAGE_CHARS,
    Reading,
    canonical,
    close,
    collect,
    excerpt,
    judge,
    loaded,
    lowercase_share,
    name,
    rank_all,
    read,
    scope_text,
)
from .probe import Probe
from .spec import InteractiveCheck, Outcome, Target

#: A passage without lang: words, letters, probabilities and lower-case share a failure needs.
PASSAGE_FAIL_WORDS = 20
PASSAGE_FAIL_LETTERS = 100
PASSAGE_FAIL_TOP = 0.99
PASSAGE_FAIL_DECLARED = 0.005
PASSAGE_FAIL_LOWER = 0.6
#: ... and what leaves it to review (the collector sends blocks of 12 words and more).
PASSAGE_REVIEW_TOP = 0.95
PASSAGE_REVIEW_DECLARED = 0.02
PASSAGE_REVIEW_LOWER = 0.5
#: Passages identified per page (in document order), and elements reported, at most.
MAX_PASSAGES = 12
MAX_REPORTED = 10


def judge_passage(reading: Reading, text: str) -> str:
    """``failed``, ``cantTell`` or ``passed`` for a block with no lang of its own."""
    if reading.top == reading.declared or close(reading.top, reading.declared):
        return "passed"
    lower = lowercase_share(text)
    if (reading.words >= PASSAGE_FAIL_WORDS and reading.letters >= PASSAGE_FAIL_LETTERS
            and reading.p_top >= PASSAGE_FAIL_TOP and reading.p_declared <= PASSAGE_FAIL_DECLARED
            and lower >= PASSAGE_FAIL_LOWER):
        return "failed"
    if (reading.p_top >= PASSAGE_REVIEW_TOP and reading.p_declared <= PASSAGE_REVIEW_DECLARED
            and lower >= PASSAGE_REVIEW_LOWER):
        return "cantTell"
    return "passed"


def _from(scope: dict[str, Any]) -> str:
    return "the html element" if scope["root"] else f"its ancestor {scope['html'][:80]}"


async def run(probe: Probe) -> AsyncIterator[Outcome]:
    if not await loaded():
        return  # the model did not load in time (a process's first page): no verdict here
    scopes = [s for s in (await collect(probe))["scopes"] if canonical(s["lang"])]
    # What to identify: each element's text, the html element's (whether its passages can be
    # judged), and every passage.
    jobs: list[tuple[dict[str, Any], dict[str, Any] | None, str]] = []
    passages = 0
    for scope in scopes:
        jobs.append((scope, None, scope_text(scope["pieces"])))
        for piece in scope["pieces"]:
            if piece.get("target") and passages < MAX_PASSAGES:
                passages += 1
                jobs.append((scope, piece, piece["text"][:PASSAGE_CHARS]))
    if not any(not scope["root"] for scope in scopes) and len(jobs) == len(scopes):
        return  # no element with a lang in body, no passage: the rule does not apply
    ranked = await rank_all([text for _, _, text in jobs])
    verdicts: dict[int, str] = {}
    outcomes: list[Outcome] = []
    tested = 0
    for (scope, piece, text), ranks in zip(jobs, ranked, strict=True):
        declared = canonical(scope["lang"])
        assert declared is not None
        reading = read(declared, text, ranks)
        if piece is None:
            verdicts[id(scope)] = "passed" if reading is None else judge(reading)
            if scope["root"] or reading is None:
                continue
            tested += 1
            verdict = verdicts[id(scope)]
            if verdict != "passed":
                outcomes.append(_element(scope, reading, verdict, text))
            continue
        if reading is None or verdicts.get(id(scope)) != "passed":
            continue
        tested += 1
        verdict = judge_passage(reading, text)
        if verdict != "passed":
            outcomes.append(_passage(scope, piece, reading, verdict))
    for outcome in outcomes[:MAX_REPORTED]:
        yield outcome
    if tested and not outcomes:
        first = next((s for s in scopes if not s["root"]), scopes[0])
        yield Outcome(Target.from_page(first), "passed",
                      f"{tested} element(s) and passage(s) read as the language they declare or inherit.")


def _element(scope: dict[str, Any], reading: Reading, verdict: str, text: str) -> Outcome:
    lang = scope["lang"]
    seen = f'"{excerpt(text)}" ({reading.letters} letters)'
    if verdict == "failed":
        message = (f'Language of part: lang="{lang}" declares {name(reading.declared)}, but its text reads as '
                   f"{reading.described}: {seen}. Set lang to the language the text is written in.")
    else:
        message = (f'Language of part: lang="{lang}" declares {name(reading.declared)}, but its text leans to '
                   f"{reading.described}: {seen}. Check that lang names the language of the text.")
    return Outcome(Target.from_page(scope), verdict, message)  # type: ignore[arg-type]


def _passage(scope: dict[str, Any], piece: dict[str, Any], reading: Reading, verdict: str) -> Outcome:
    lang = scope["lang"]
    seen = f'{piece["words"]} words, "{excerpt(piece["text"])}"'
    where = f'it inherits lang="{lang}" ({name(reading.declared)}) from {_from(scope)}'
    if verdict == "failed":
        message = (f"Language of part: this passage reads as {reading.described} but has no lang of its own: "
                   f'{where}: {seen}. Mark it up with lang="{reading.top}".')
    else:
        message = (f"Language of part: this passage seems to be in {reading.described} and has no lang of its "
                   f"own: {where}: {seen}. If it is in another language, mark it up with lang.")
    return Outcome(Target.from_page(piece), verdict, message)  # type: ignore[arg-type]


CHECK = InteractiveCheck(
    rule_id="a11y-part-language",
    act_rules=("off6ek",),
    criteria=("3.1.2",),
    level="AA",
    since="2.0",
    impact="serious",
    description="Ensures each element's lang names the language of its text, and passages in another "
    "language declare it",
    help="Parts in another language must declare it with lang, and lang must name the text's language",
    run=run,
    ahead=langid_model.preload,
)
