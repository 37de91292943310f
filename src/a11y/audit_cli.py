"""``a11y audit URL``: one audit from the command line, the same engine as the service.

The arguments go through the service's own ``AuditRequest`` model, so the CLI accepts exactly
what ``POST /audit`` accepts and names the same field when it refuses something. stdout
carries only the report (pipe it into a file or a CI parser); progress and errors go to
stderr. Exit codes: 0 audited (and no finding at or above ``--fail-on``), 1 findings at or
above ``--fail-on`` (or, with a baseline, new findings at or above ``--fail-on-new``: see
:mod:`a11y.baseline_cli`), 2 bad arguments, an unusable baseline or a failed audit.

A cold start is most of a one-page run, so the work is ordered for it: a thread starts reading
the language checks' model before anything else is imported (:mod:`audit.langid_model`), the
browser is launched next, and while it starts a thread checks the arguments and imports the
engine (a bad argument stops the browser at once and is reported without waiting for it). At
the end the browser's profile is renamed away and removed by a process of its own, which the
user does not wait for. The browser
serves this one audit (``EngineLimits.private_browser``): the page opens in the tab the
browser opened at launch, and nothing is prepared for audits that will never come.
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from .baseline_cli import Baseline, BaselineError, load_baseline

if TYPE_CHECKING:  # the models are imported while the browser starts (see the docstring)
    from audit.models import AuditRequest, AuditResult, PageResult
    from audit.screenshots import RunScreenshots

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
    "checks.interaction": "--interaction / --no-interaction",
    "viewport": "--viewport",
    "viewports": "--viewport",
    "auth": "--auth-file",
}


def build_request(args: argparse.Namespace) -> AuditRequest:
    """The AuditRequest for the parsed arguments; raises pydantic's ValidationError."""
    from audit.models import AuditRequest

    body: dict[str, Any] = {
        "url": args.url,
        "level": args.level,
        "version": args.wcag_version,
        "crawl": {"enabled": bool(args.crawl), "depth": args.depth, "maxPages": args.max_pages},
        "bestPractices": bool(args.best_practices),
    }
    body["checks"] = {"interaction": bool(getattr(args, "interaction", True))}
    body.update(screen_options(getattr(args, "viewport", None) or []))
    if getattr(args, "auth_file", None):
        body["auth"] = read_auth_file(args.auth_file)
    return AuditRequest.model_validate(body)


_SIZE = re.compile(r"^(\d{1,5})x(\d{1,5})(?:@(\d{1,2}(?:\.\d{1,3})?))?$")


def screen_options(specs: list[str]) -> dict[str, Any]:
    """``--viewport desktop|mobile|WxH[@dsf]``, once (``viewport``) or more (``viewports``);
    a spec that is neither is passed on for the model to name."""
    options: list[Any] = []
    for spec in specs:
        size = _SIZE.match(spec)
        if size is None:
            options.append(spec)
        else:
            width, height, scale = size.groups()
            options.append({"width": int(width), "height": int(height),
                            "deviceScaleFactor": float(scale or 1)})
    if not options:
        return {}
    return {"viewport": options[0]} if len(options) == 1 else {"viewports": options}


def read_auth_file(path: str) -> Any:
    """The ``auth`` object from a JSON file (a file keeps secrets off the command line and
    out of ``ps``); a file that cannot be read is an error of the field ``auth``, naming the
    file but never quoting it."""
    from pydantic import ValidationError
    from pydantic_core import InitErrorDetails, PydanticCustomError

    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        reason = "not JSON" if isinstance(exc, ValueError) else type(exc).__name__
        problem = PydanticCustomError("auth_file", "Cannot read {path}: {reason}.", {"path": path, "reason": reason})
        raise ValidationError.from_exception_data(
            "AuditRequest", [InitErrorDetails(type=problem, loc=("auth",), input=None)], hide_input=True
        ) from None


def _checked_request(args: argparse.Namespace) -> AuditRequest | None:
    """The request, with the engine imported for it; None (the problems on stderr) when an
    argument is bad. Runs in a thread while the browser starts."""
    from pydantic import ValidationError

    from audit.models import request_errors

    try:
        request = build_request(args)
    except ValidationError as exc:
        for detail in request_errors(exc):
            option = OPTION_OF_FIELD.get(detail["field"], detail["field"])
            _err(f"invalid {option} (field {detail['field']}): {detail['message']}")
        return None
    import audit.engine  # noqa: F401
    import audit.reports  # noqa: F401

    return request


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
    if getattr(args, "interaction", True):  # the language checks' model: its read overlaps all below
        from audit import langid_model

        langid_model.preload()
    if not getattr(args, "verbose", False):
        for name in ("cdpdriver", "audit"):  # launch chatter and the engine's own failure line (we print it)
            logging.getLogger(name).setLevel(logging.ERROR)
    import trio

    try:
        return trio.run(_audit, args)
    except KeyboardInterrupt:
        _err("interrupted")
        return 130


async def _audit(args: argparse.Namespace) -> int:
    """Launch the browser, check the request meanwhile, audit, write the report."""
    import trio

    from audit.launch import audit_launch_options
    from cdpdriver import CDPError, launch, single_exception

    browser_done = trio.Event()
    launched: dict[str, Any] = {}
    ready = trio.Event()

    async def hold_browser() -> None:
        try:
            async with launch(audit_launch_options()) as browser:
                launched["browser"] = browser
                ready.set()
                await browser_done.wait()
                if browser.process is not None:  # nothing in a one-audit profile is worth a
                    # graceful shutdown: stop it now, and leave its profile's removal to a
                    # process of its own rather than make the user wait for it
                    await browser.process.terminate(grace=0, detach_removal=True)
        except CDPError as exc:  # around the audit, not in it: the browser could not be launched
            launched["error"] = exc
            ready.set()

    with single_exception():
        async with trio.open_nursery() as nursery:
            nursery.start_soon(hold_browser)
            try:
                request = await trio.to_thread.run_sync(_checked_request, args)
                from audit.scoring import EXIT_AUDIT_FAILED  # the models are loaded by now

                if request is None:
                    return EXIT_AUDIT_FAILED
                try:  # a baseline that cannot be had stops the run before the audit
                    baseline = await trio.to_thread.run_sync(load_baseline, args)
                except BaselineError as exc:
                    _err(str(exc))
                    return EXIT_AUDIT_FAILED
                await ready.wait()
                if "error" in launched:
                    _err(f"browser error: {launched['error']}")
                    return EXIT_AUDIT_FAILED
                shots = _screenshots_for(args)
                result = await _run_audit(launched["browser"], request, shots)
            finally:
                browser_done.set()  # the browser closes while the report is written
                if "browser" not in launched:
                    nursery.cancel_scope.cancel()
            if result is None:
                return EXIT_AUDIT_FAILED
            return _report(result, args, baseline, shots)


def _screenshots_for(args: argparse.Namespace) -> RunScreenshots | None:
    """Only the HTML report shows each finding's element, so only it pays for the shots."""
    if args.format != "html":
        return None
    from audit.screenshots import RunScreenshots

    return RunScreenshots()


async def _run_audit(browser: Any, request: AuditRequest, shots: RunScreenshots | None = None) -> AuditResult | None:
    """The audit, with progress on stderr; None (the reason on stderr) when it failed."""
    from audit.engine import EngineLimits, run_audit
    from audit.failures import AuditFailed

    from .login_runner import run_login_steps

    progress = Progress(request)
    progress.start(request.url)
    try:
        limits = EngineLimits(private_browser=True, login_runner=run_login_steps, screenshots=shots)
        return await run_audit(browser, request, limits, on_page=progress.page)
    except AuditFailed as exc:  # the engine's one failure type, classified by the engine
        _err(f"audit failed ({exc.code}): {exc.message}")
        return None
    finally:
        progress.finish()


def _report(result: AuditResult, args: argparse.Namespace, baseline: Baseline | None = None,
            shots: RunScreenshots | None = None) -> int:
    from audit.scoring import EXIT_AUDIT_FAILED, exit_code

    from .baseline_cli import compare, new_findings_exit, render_report, summary

    comparison = compare(result, baseline)
    try:
        if shots is not None:  # the HTML report, with each finding's screenshot inline
            from audit.reports import render
            from audit.screenshots import ScreenshotIndex

            text = render(result, "html", screenshots=ScreenshotIndex.of_pages(shots.pages.values()))
        else:
            text = render_report(result, args.format, baseline, comparison, getattr(args, "group", "findings"))
        write_report(text, args.output)
    except OSError as exc:
        _err(f"cannot write the report: {exc}")
        return EXIT_AUDIT_FAILED
    if comparison is not None:
        _err(summary(comparison))
    group = getattr(args, "group", "findings")
    return max(exit_code(result, args.fail_on), new_findings_exit(comparison, args.fail_on_new, group))
