"""a11y-page-language: the language the html element declares is the language the page is in.

ACT rule ucwvc8 (HTML page language subtag matches default language); WCAG 3.1.1 Language of
Page (A).

axe-core checks that ``lang`` is present and well formed (``html-has-lang``,
``html-lang-valid``), never that it is right: a template's ``lang="en"`` on a German page
passes, and screen readers then read German with English pronunciation. This check reads the
text that inherits the html element's language, as the ACT rule defines it: the page's title,
the visible text and the text in the accessibility tree (text alternatives and names taken
from ``aria-labelledby`` included, even from hidden elements), leaving out every subtree that
declares a lang of its own, and code (``pre``, ``code``, ``kbd``, ``samp``, ``var``) and
``translate="no"`` content, which are no human language. One page-side call collects it
(``js/language_texts.js``, at most 6,000 characters), and the text is identified offline
(:mod:`.language_id`: py3langid's model, restricted to common web languages).

Fails when the text, at least 40 letters of it (up to 2,000 characters, sampled across the
page rather than from its top), is identified as another language with at least 90 %
probability and the declared language at 2 % or less, and each half of the text (where it
has 40 letters or more) reads as that same language: an English cookie banner over a German
page makes it a question for a person, not a failure. A clear lead of another language on
less text (a title and an image's alternative text), or a close relative of the declared
language (Danish for Norwegian, Croatian for Serbian), is left to review too. A primary
subtag the identifier does not know (``lb``, ``eng``, ``i-lux``), or too little text,
decides nothing. Cost: one page-side call (about 20 ms on a medium page) and a few ms of
identification on a worker thread; the model loads once per process in the background
(:mod:`.language_id`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from .. import langid_model
from .language_id import (
    FAIL_LETTERS,
    canonical,
    collect,
    excerpt,
    halves,
    judge,
    loaded,
    name,
    rank_all,
    read,
    scope_text,
)
from .probe import Probe
from .spec import InteractiveCheck, Outcome, Target


async def run(probe: Probe) -> AsyncIterator[Outcome]:
    if not await loaded():
        return  # the model did not load in time (a process's first page): no verdict here
    scopes = (await collect(probe))["scopes"]
    root = next((s for s in scopes if s["root"]), None)
    if root is None:
        return  # no lang on the html element (html-has-lang's concern) or no text at all
    declared = canonical(root["lang"])
    if declared is None:
        return  # a language the identifier does not know, or no valid subtag
    text = scope_text(root["pieces"])
    first, second = halves(root["pieces"])
    ranked, *parts = await rank_all([text, first, second])
    reading = read(declared, text, ranked)
    if reading is None:
        return  # too little text to tell
    verdict = judge(reading)
    mixed = ""
    if verdict == "failed":
        # Both halves of the text must read as that language, where they are long enough to
        # say: a long passage in another language at the top (a banner) is not the page.
        for half, ranks in zip((first, second), parts, strict=True):
            other = read(declared, half, ranks)
            if other is not None and other.letters >= FAIL_LETTERS and other.top != reading.top:
                verdict = "cantTell"
                mixed = f" (though a half of it reads as {name(other.top)})"
    target = Target.from_page(root)
    lang = root["lang"]
    if verdict == "passed":
        yield Outcome(target, "passed", f'The page\'s text reads as {name(declared)}, as lang="{lang}" says.')
        return
    seen = f'{reading.letters} letters of its title, text and text alternatives, e.g. "{excerpt(text)}"'
    if verdict == "failed":
        yield Outcome(target, "failed", (
            f'Page language: lang="{lang}" declares {name(declared)}, but the text that inherits it reads as '
            f"{reading.described}: {seen}. Set lang to the language the page is written in."
        ))
    else:
        yield Outcome(target, "cantTell", (
            f'Page language: lang="{lang}" declares {name(declared)}, but the text that inherits it leans to '
            f"{reading.described}{mixed}: {seen}. Check that lang names the language the page is written in."
        ))


CHECK = InteractiveCheck(
    rule_id="a11y-page-language",
    act_rules=("ucwvc8",),
    criteria=("3.1.1",),
    level="A",
    since="2.0",
    impact="serious",
    description="Ensures the language the html element declares is the language of the page's text",
    help="The page's lang must name the language its text is written in",
    run=run,
    ahead=langid_model.preload,
)
