"""``a11y audit URL``: one audit from the command line, the same engine as the service.

The arguments go through the service's own ``AuditRequest`` model, so the CLI accepts exactly
what ``POST /audit`` accepts and names the same field when it refuses something. stdout
carries only the report (pipe it into a file or a CI parser); progress and errors go to
stderr. Exit codes: 0 audited (and no finding at or above ``--fail-on``), 1 findings at or
above ``--fail-on``, 2 bad arguments or a failed audit.

A cold start is most of a one-page run, so the work is ordered for it: the arguments are
checked first (a typo never waits for a browser), then the browser is launched, and the engine
is imported in a thread while the browser starts. The browser serves this one audit
(``EngineLimits.private_browser``): the page opens in the tab the browser opened at launch, and
nothing is prepared for audits that will never come.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path
from typing import Any, TextIO

import trio
from pydantic import ValidationError

from audit.models import AuditRequest, AuditResult, PageResult, request_errors
from audit.scoring import EXIT_AUDIT_FAILED, exit_code

PROG = "a11y audit"

#: Request field -> the option that sets it, for error messages people can act on.
OPTION_OF_FIELD = {
    "url": "URL",
    "level": "--level",
    "version": "--version",
    "crawl.enabled": "--crawl",
    "crawl.depth": "--depth",
    "crawl.maxPages": "--max-pages",
    "bestPractices": "--best-practices",
}


def build_request(args: argparse.Namespace) -> AuditRequest:
    """The AuditRequest for the parsed arguments; raises pydantic's ValidationError."""
    body: dict[str, Any] = {
        "url": args.url,
        "level": args.level,
        "version": args.wcag_version,
        "crawl": {"enabled": bool(args.crawl), "depth": args.depth, "maxPages": args.max_pages},
        "bestPractices": bool(args.best_practices),
    }
    return AuditRequest.model_validate(body)


def _err(line: str) -> None:
    sys.stderr.write(f"{PROG}: {line}\n")
    sys.stderr.flush()


class Progress:
    """Per-page progress on stderr: a live line on a terminal, one plain line per page in a
    log (CI), nothing when not crawling. Never touches stdout, which holds the report."""

    def __init__(self, request: AuditRequest, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.enabled = request.crawl.enabled
        self.total = request.crawl.max_pages
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.done = 0
        self._live = False

    def start(self, url: str) -> None:
        if self.enabled and self.tty:
            self._show(f"auditing {url} ...")

    def page(self, page: PageResult) -> None:
        if not self.enabled:
            return
        self.done += 1
        what = f"{page.findings} finding(s)" if page.status == "ok" else page.status
        if page.error is not None and page.status != "ok":
            what += f": {page.error.code}"
        if self.tty:
            self._show(f"[{self.done}/{self.total}] {page.url} ({what})")
        else:
            self.stream.write(f"page {self.done}: {page.url} ({what})\n")
            self.stream.flush()

    def _show(self, text: str) -> None:
        self.stream.write("\r\x1b[K" + text[:200])
        self.stream.flush()
        self._live = True

    def finish(self) -> None:
        if self._live:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._live = False


def _import_engine() -> None:
    """The modules the audit and its report need, imported while the browser starts."""
    import audit.engine  # noqa: F401
    import audit.reports  # noqa: F401


async def audit_url(request: AuditRequest, progress: Progress) -> AuditResult:
    """Launch a browser for this one audit and run it (the process dies with the block)."""
    from cdpdriver import launch, single_exception

    progress.start(request.url)
    try:
        with single_exception():  # the audit's own failure, not a group around it
            async with trio.open_nursery() as nursery:
                imported = trio.Event()

                async def import_engine() -> None:
                    await trio.to_thread.run_sync(_import_engine)
                    imported.set()

                nursery.start_soon(import_engine)
                async with launch() as browser:
                    await imported.wait()
                    from audit.engine import EngineLimits, run_audit

                    limits = EngineLimits(private_browser=True)
                    return await run_audit(browser, request, limits, on_page=progress.page)
    finally:
        progress.finish()


def write_report(text: str, output: str | None) -> None:
    """The report to ``output`` (parent directories created) or to stdout."""
    if not text.endswith("\n"):
        text += "\n"
    if output:
        path = Path(output)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        _err(f"report written to {path}")
    else:
        sys.stdout.write(text)  # stdout-ok: the report is the CLI's output
        sys.stdout.flush()


def run(args: argparse.Namespace) -> int:
    """Entry point of ``a11y audit``: returns the process exit code."""
    if not getattr(args, "verbose", False):
        for name in ("cdpdriver", "audit"):  # launch chatter and the engine's own failure line (we print it)
            logging.getLogger(name).setLevel(logging.ERROR)
    try:
        request = build_request(args)
    except ValidationError as exc:
        for detail in request_errors(exc):
            option = OPTION_OF_FIELD.get(detail["field"], detail["field"])
            _err(f"invalid {option} (field {detail['field']}): {detail['message']}")
        return EXIT_AUDIT_FAILED
    from audit.failures import AuditFailed
    from cdpdriver import CDPError

    progress = Progress(request)
    try:
        result = trio.run(audit_url, request, progress)
    except AuditFailed as exc:  # the engine's one failure type, classified by the engine
        _err(f"audit failed ({exc.code}): {exc.message}")
        return EXIT_AUDIT_FAILED
    except CDPError as exc:  # around the audit, not in it: the browser could not be launched
        _err(f"browser error: {exc}")
        return EXIT_AUDIT_FAILED
    except KeyboardInterrupt:
        _err("interrupted")
        return 130
    from audit.reports import render

    try:
        write_report(render(result, args.format), args.output)
    except OSError as exc:
        _err(f"cannot write the report: {exc}")
        return EXIT_AUDIT_FAILED
    return exit_code(result, args.fail_on)
