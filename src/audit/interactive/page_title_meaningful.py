"""a11y-page-title-meaningful: a page title that is a placeholder, a file name or an address.

WCAG 2.4.2 Page Titled (A). No ACT rule is mapped: the failed cases of ACT rule c4a8a4 (HTML
page title is descriptive) are titles that are real words but wrong for the content ("Apple
harvesting season" above a text about clementines, a site's name alone over search results),
which only a reading of the page can judge: that is the LLM judge's question
(``a11y-judge-page-title``), and without it this check would find none of them.

axe-core's ``document-title`` only checks that a title exists and is not empty. Titles that
say nothing about any page are common and need no judgment: editors' and frameworks'
placeholders ("Untitled Document", "New Page", "Document", "React App"), a file name
("index.html", "report.pdf"), a web address, or no letter or digit at all. They fail. A
title that is a single word of the kind a home page might use alone ("Home", "Welcome") or
only a number ("404", or a game called "2048") is left to review; any other title passes
here, its relevance being the judge's question. Cost: one page-side call reading
``document.title``.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

from cdpdriver.scripts import load_script

from .probe import Probe
from .spec import InteractiveCheck, Outcome, Target

#: Titles editors, generators and frameworks put in until somebody writes one (compared in lower
#: case, without surrounding punctuation and a trailing number: "Untitled-1", "New page 2").
PLACEHOLDERS = frozenset({
    "untitled", "untitled document", "untitled page", "untitled site", "untitled web page", "new page",
    "new document", "new web page", "new tab", "document", "page", "title", "page title", "document title",
    "my page", "my webpage", "my web page", "my website", "my site", "web page", "webpage", "website",
    "index", "default", "placeholder", "title here", "page title here", "insert title here",
    "enter title here", "title goes here", "your title here", "your page title", "your website title",
    "lorem ipsum", "test page", "react app", "vite app", "vite + react", "vite + react + ts",
    "vite + vue", "vite + vue + ts", "vite + svelte", "vite + svelte + ts", "vite + preact", "vite + lit",
    "create next app", "next.js app", "svelte app", "sveltekit app", "ember app", "angular app", "nuxt app",
    "html page", "html document", "html5 template", "html template", "template", "blank", "blank page",
    "no title", "(no title)", "null", "undefined", "none",
})
#: Placeholders that, numbered ("Page 6", "Document 2"), may also be a page of a paginated series
#: whose title was cut short: vague, but not certainly an editor's leftover.
SERIES = frozenset({"page", "document", "web page", "webpage"})
#: Words a home page (or a quiz) may be titled with alone: vague, but not certainly wrong.
VAGUE = frozenset({"home", "homepage", "home page", "welcome", "start", "main", "main page", "start page", "test",
                   "testing"})

_FILE = re.compile(
    r"[\w~%+-]+(?:[ ._-][\w~%+-]+)*\.(?:html?|xhtml|shtml|php\d?|aspx?|jspx?|cfm|cgi|pl|pdf|docx?|odt|rtf|"
    r"xlsx?|ods|csv|pptx?|odp|txt|md|png|jpe?g|gif|svg|webp)",
    re.IGNORECASE,
)
_URL = re.compile(r"(?:https?|file|ftp)://\S+", re.IGNORECASE)
_TRAILING_NUMBER = re.compile(r"[\s_-]*\(?\d{1,3}\)?$")
_EDGE = " \t\r\n.,:;!?-–—_|·•*\"'«»“”‘’()[]<>/\\"


def judge(title: str, url: str) -> tuple[str, str] | None:
    """(verdict, why) for a page title, or None when it may be fine (this check cannot tell)."""
    shown = " ".join(title.split())
    bare = shown.strip(_EDGE).lower()
    if not shown:
        return None  # an empty title is document-title's finding
    if not re.search(r"[^\W_]", shown):
        return "failed", "has no letter or digit: it names nothing"
    numbered = _TRAILING_NUMBER.sub("", bare)
    if bare in PLACEHOLDERS or (numbered in PLACEHOLDERS and numbered not in SERIES):
        return "failed", "is a placeholder left by an editor or a framework: it says nothing about the page"
    if numbered in SERIES:
        return "cantTell", "is a generic word and a number: a page of a series perhaps, but it does not say what the series is about"
    if _FILE.fullmatch(shown.strip(_EDGE)):
        return "failed", "is a file name: it says what the page is stored as, not what it is about"
    if _URL.fullmatch(shown) or shown.rstrip("/") == url.rstrip("/"):
        return "failed", "is a web address: it says where the page is, not what it is about"
    if bare in VAGUE:
        return "cantTell", "is one vague word: if this is not the site's home page, or the site is not named, it does not tell pages apart"
    if re.fullmatch(r"[\d\s.,:/#-]+", bare):
        return "cantTell", "is only a number: unless that is the name of what the page is about, it describes nothing"
    return None


async def run(probe: Probe) -> AsyncIterator[Outcome]:
    found = await probe.call(load_script(__package__, "page_title"))
    if not found or not str(found.get("title") or "").strip():
        return  # no title (document-title's finding): nothing to judge
    title = str(found["title"])
    target = Target.from_page(found)
    decided = judge(title, str(found.get("url") or ""))
    if decided is None:
        yield Outcome(target, "passed", f'The title "{title.strip()[:120]}" is no placeholder, file name or address.')
        return
    verdict, why = decided
    advice = 'Give the page a title that names its topic or purpose, then the site (e.g. "Opening hours - Harbour Bakery").'
    if verdict == "failed":
        yield Outcome(target, "failed", f'Page title: "{title.strip()[:120]}" {why}. {advice}')
    else:
        yield Outcome(target, "cantTell", f'Page title: "{title.strip()[:120]}" {why}. Check it; {advice[0].lower()}{advice[1:]}')


CHECK = InteractiveCheck(
    rule_id="a11y-page-title-meaningful",
    act_rules=(),
    criteria=("2.4.2",),
    level="A",
    since="2.0",
    impact="serious",
    description="Ensures the page title is not a placeholder, a file name or a web address",
    help="The page title must describe the page, not be a placeholder, file name or address",
    run=run,
)
