"""Where the time of one page's audit goes, always measured (it costs a clock read a phase).

Each page's :class:`~audit.page_audit.PageAudit` carries the seconds each phase took, so the
benchmark reads the same figures a service run produces and a job's page record can keep
them. The phases, in the order a page passes through them: ``lease`` (a tab ready for the
page; ``context`` is the part of it spent making a browser context, for a page that found no
prepared one), ``navigate`` (to ``load``), ``settle``, ``inject`` (axe into the top frame),
``axe`` (the run, child frames included), ``finish`` (merging the frames' results), ``links``
(for the crawl), ``identify`` (the findings' elements described for their fingerprints), ``screenshots``
(the evidence pictures, when the run takes them), ``close`` (what closing costs the page before it is reported; the rest runs in the
background). Phases that overlap (axe is injected while the page settles) are each
measured whole, so they need not add up to the page's wall time, which is ``total``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager


class PhaseClock:
    """Seconds per phase name, summed when a phase repeats (e.g. a second injection)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._started = time.monotonic()

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        started = time.monotonic()
        try:
            yield
        finally:
            self.add(name, time.monotonic() - started)

    def add(self, name: str, seconds: float) -> None:
        self.seconds[name] = self.seconds.get(name, 0.0) + seconds

    def finish(self) -> dict[str, float]:
        """The phases so far plus ``total`` (since the clock was made), to a tenth of a
        millisecond: what a page's audit keeps."""
        self.seconds["total"] = time.monotonic() - self._started
        return {name: round(value, 4) for name, value in self.seconds.items()}
