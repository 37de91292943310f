"""a11y-identical-links: links with the same name in the same context go to the same place.

WCAG 2.4.4 Link Purpose (In Context) (A). ACT rules fd3a94 (links with identical accessible
names and same context serve equivalent purpose) and b20e66 (the same page-wide, for 2.4.9)
are read but not mapped: both pass links to different, non-equivalent pages when nothing on the
page tells them apart visually ("Call us" to a page with a phone number and to a contact page
that also has it), which no comparison of the documents can decide, so this check never fails
and could not be consistent with them. axe-core's ``identical-links-same-purpose`` already asks
a person about every page-wide set (2.4.9).

Two links whose names match (case and white space aside) and that share ACT's programmatically
determined link context (the same list items, closest block container, closest table cell
with its headers, and ``aria-describedby`` descriptions) tell a screen reader user nothing
apart. The check resolves them: the same address, or (same origin only) the same document
after redirects and instant ``<meta http-equiv="refresh">``, or documents with the same title
and main text (a copy; not when only the query differs and the document is built by scripts)
pass. Different documents, addresses of another origin and script links whose address cannot
be read are left to a person (``cantTell``), with the addresses and titles found. Documents are
fetched with GET in the interaction world, never for addresses that may act (log out, delete,
cart, download and the like): at most 6, 0.8 s each and 1.5 s in all, for at most 20 sets.
Cost: one page-side call, about 5 ms on a medium page, plus the fetches on a page with sets
of different same-origin addresses.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit

from cdpdriver.scripts import load_script

from .probe import Probe
from .spec import InteractiveCheck, Outcome, Target

#: Links read, sets of matching links resolved, documents fetched (how long each may take, how
#: long all may, how many characters of each are read), and the title and main text an
#: equivalent copy needs.
LIMITS = {"links": 1500, "groups": 20, "fetches": 6, "fetchMs": 800, "totalMs": 1500, "bytes": 400_000,
          "minText": 30}


def _short(url: str | None, base: str) -> str:
    if not url:
        return "a script's address"
    parts, page = urlsplit(url), urlsplit(base)
    if parts.netloc == page.netloc:
        return parts.path + (f"?{parts.query}" if parts.query else "") + (f"#{parts.fragment}" if parts.fragment else "")
    return url


def _message(group: dict[str, Any], base: str) -> str:
    name = group["name"]
    documents = (group.get("detail") or {}).get("documents") or []
    if group["outcome"] == "different" and documents:
        where = ", ".join(f'{_short(d["url"], base)} ("{d["title"]}")' if d["title"] else _short(d["url"], base)
                          for d in documents)
        seen = f"lead to different documents: {where}"
    elif documents:
        urls = ", ".join(_short(d["url"], base) for d in documents)
        seen = f"lead to {urls}, documents that read the same before their scripts run, which may build different pages"
    else:
        urls = ", ".join(dict.fromkeys(_short(link["url"], base) for link in group["links"]))
        seen = f"lead to {urls}, which could not be compared (another site, or a script's link)"
    return (f'{len(group["links"])} links named "{name}" in the same context {seen}. If they serve different '
            "purposes, give each a name that says where it leads; if the same, point them to one address.")


async def run(probe: Probe) -> AsyncIterator[Outcome]:
    groups = await probe.call(load_script(__package__, "identical_links"), LIMITS) or []
    if not groups:
        return  # no two links with one name in one context
    review = [g for g in groups if g["outcome"] in ("different", "unknown")]
    for group in review:
        yield Outcome(Target.from_page(group["links"][0]), "cantTell", _message(group, probe.url))
    if not review:
        yield Outcome(Target.from_page(groups[0]["links"][0]), "passed",
                      f"{len(groups)} set(s) of links with one name and context lead to one place each.")


CHECK = InteractiveCheck(
    rule_id="a11y-identical-links",
    act_rules=(),
    criteria=("2.4.4",),
    level="A",
    since="2.0",
    impact="moderate",
    description="Ensures links with the same name in the same context lead to the same or an equivalent page",
    help="Links with the same name and context must serve the same purpose",
    run=run,
)
