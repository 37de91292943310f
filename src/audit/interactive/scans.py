"""The checks' first reads, made in one page-side call as the interaction phase begins.

Most checks start by reading the page for what they could act on: the disclosure controls,
the forms, the images with text, whether anything can clip text when zoomed. On most pages
most of those reads find nothing, and a round trip to the page costs about half a millisecond
of CPU across the browser's processes and ours, more than the read itself on a small page.
So a check declares that read (:class:`~.spec.Scan`), :func:`prefetch` makes all of them for
the phase in one call before any check acts, and the check takes its own with
:func:`first_read`:

- when it found nothing to do (:attr:`Scan.idle <.spec.Scan.idle>`), that answer stands and
  the check ends with no call of its own: the check is judged on the page as the phase found
  it (each check before it undoes its actions);
- when it found something, it is read again as the check starts, on the page as it is then,
  since the checks before may have moved focus, opened and closed things or laid the page out
  anew: element keys and boxes from before might no longer hold.

A read that failed in the prefetch (a script error) is made again by its check, which then
reports the failure as it would have. A check run outside the phase reads for itself.
"""

from __future__ import annotations

import json
import logging
import weakref
from collections.abc import Sequence
from typing import Any

from cdpdriver import JavaScriptError
from cdpdriver.scripts import call_expression

from .probe import Probe
from .spec import Scan

log = logging.getLogger(__name__)

_PREFETCHED: weakref.WeakKeyDictionary[Probe, dict[int, Any]] = weakref.WeakKeyDictionary()
_MISSING = object()
_EXPRESSIONS: dict[tuple[tuple[str, str], ...], str] = {}


def _together(scans: Sequence[Scan]) -> str:
    """A function expression that makes every read in turn and returns, for each, ``{value}``
    or ``{error}``; one string per set of reads (the same set for every page of a run)."""
    key = tuple((scan.script, json.dumps(scan.args, sort_keys=True)) for scan in scans)
    made = _EXPRESSIONS.get(key)
    if made is None:
        made = _EXPRESSIONS[key] = _written(scans)
    return made


def _written(scans: Sequence[Scan]) -> str:
    runs = ",\n".join(
        f"() => {call_expression(scan.script, *scan.args)}" for scan in scans
    )
    return (
        "async function () {\n  const out = [];\n"
        f"  for (const run of [\n{runs}\n  ]) {{\n"
        "    try { out.push({value: await run()}); }\n"
        "    catch (error) { out.push({error: String((error && error.message) || error)}); }\n"
        "  }\n  return out;\n}"
    )


async def prefetch(probe: Probe, scans: Sequence[Scan]) -> None:
    """Make ``scans`` in one page-side call, for :func:`first_read`. Raises what
    :meth:`Probe.call` raises for a page that does not answer; a page-side failure of the
    whole call only leaves the checks to read for themselves."""
    scans = list({id(scan): scan for scan in scans}.values())  # a read two checks share, once
    if not scans:
        return
    try:
        answers = await probe.call(_together(scans))
    except JavaScriptError as exc:
        log.debug("the checks' first reads failed together: %s", exc)
        return
    _PREFETCHED[probe] = {
        id(scan): answer["value"]
        for scan, answer in zip(scans, answers or [], strict=False)
        if isinstance(answer, dict) and "value" in answer
    }


async def first_read(probe: Probe, scan: Scan) -> Any:
    """What ``scan`` reads: the prefetched answer when it found nothing to do, else read now
    (see the module docstring)."""
    found = _PREFETCHED.get(probe, {}).pop(id(scan), _MISSING)
    if found is not _MISSING and scan.idle(found):
        return found
    return await probe.call(scan.script, *scan.args)
