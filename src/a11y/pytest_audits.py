"""What the pytest plugin's ``a11y_audit`` fixture does, apart from pytest's wiring.

One :class:`SessionAudits` per test session holds the session's browser (started on the first
audit, through :class:`a11y.api_sync.SyncAuditor`; a ``--a11y-browser-url`` browser is
attached to instead), the server of HTML strings (:mod:`a11y.html_pages`), the baseline, and
with ``--a11y-save-baseline`` every result, written as the next run's baseline at the end.
Each call audits a URL or an HTML string and judges the result: findings at or above
``fail_on`` fail the test, or with a baseline only those new since it (matched by
fingerprint, as the CLI's ``--fail-on-new``). The failure lists each finding the way a
reviewer reads them: impact, rule, selector, the rule's help and its help URL.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from os import PathLike
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from audit.models import AuditResult, Finding

    from .api_sync import SyncAuditor
    from .html_pages import HtmlPages

IMPACTS = ("critical", "serious", "moderate", "minor")


class A11yFindings(AssertionError):
    """Raised (and shown by pytest as the test's failure) when findings fail the test."""


def check_fail_on(fail_on: str | None) -> str | None:
    """``fail_on`` lower-cased; a ``ValueError`` naming the field when it is not an impact."""
    if fail_on is None:
        return None
    if not isinstance(fail_on, str) or fail_on.lower() not in IMPACTS:
        raise ValueError(f"fail_on must be one of {', '.join(IMPACTS)} or None, got {fail_on!r}")
    return fail_on.lower()


def baseline_results(baseline: Any) -> list[AuditResult] | None:
    """The results a baseline argument stands for: a report file (one JSON report or an
    array of them), one ``AuditResult`` or a sequence of them; None for none."""
    from audit.models import AuditResult

    from .baseline_cli import read_baseline_reports

    if baseline is None:
        return None
    if isinstance(baseline, AuditResult):
        return [baseline]
    if isinstance(baseline, str | PathLike):
        return read_baseline_reports(str(baseline))
    results = list(baseline)
    if not all(isinstance(item, AuditResult) for item in results):
        raise TypeError("baseline must be a report file, an AuditResult or a list of AuditResults")
    return results


def failing_findings(
    result: AuditResult, fail_on: str | None, baseline: list[AuditResult] | None
) -> tuple[list[Finding], int]:
    """The findings that fail the test and how many findings the baseline already had."""
    from audit.rules import IMPACT_RANK

    if fail_on is None:
        return [], 0
    if baseline is None:
        threshold = IMPACT_RANK[fail_on]
        return [f for f in result.findings if IMPACT_RANK[f.impact] >= threshold], 0
    diff = result.diff(baseline)
    return diff.new_at_or_above(fail_on), len(diff.unchanged)


def failure_message(
    result: AuditResult, failing: Sequence[Finding], fail_on: str, *, known: int | None = None
) -> str:
    """The test's failure: a headline, then one block per finding, the most severe first."""
    what = "new finding(s)" if known is not None else "finding(s)"
    lines = [
        f"a11y: {len(failing)} {what} at or above {fail_on!r} on {result.url} "
        f"(WCAG {result.wcag_version} {result.wcag_level}, score {result.score:g})"
    ]
    if known is not None:
        lines[0] += f"; {known} finding(s) already in the baseline"
    for finding in sorted(failing, key=lambda item: IMPACTS.index(item.impact)):  # stable
        lines.append(f"  [{finding.impact}] {finding.rule_id}: {finding.selector}")
        if finding.help_text:
            lines.append(f"      {finding.help_text}")
        if finding.page_url and finding.page_url != result.url:
            lines.append(f"      page: {finding.page_url}")
        lines.append(f"      {finding.help}")
    return "\n".join(lines)


@dataclass
class SessionAudits:
    """The plugin's state for one test session; ``close()`` ends everything it started."""

    browser_url: str | None = None
    baseline: list[AuditResult] | None = None
    #: Where ``close()`` writes every result of the session, as a baseline for later runs.
    save_to: str | None = None
    _results: list[AuditResult] = field(default_factory=list)
    _auditor: SyncAuditor | None = None
    _pages: HtmlPages | None = None
    _names: Counter[str] = field(default_factory=Counter)

    @property
    def launched(self) -> bool:
        """Whether this session has started a browser of its own."""
        return self._auditor is not None and self.browser_url is None

    @property
    def browser_pid(self) -> int | None:
        """The process id of the browser this session launched, if it has launched one."""
        return self._auditor.browser_pid if self._auditor is not None else None

    def audit(
        self,
        test_id: str,
        url_or_html: str,
        *,
        level: str = "AA",
        version: str = "2.2",
        baseline: Any = None,
        fail_on: str | None = "serious",
        browser_url: str | None = None,
        **request_fields: Any,
    ) -> AuditResult:
        """Audit and judge (see the module docstring); raises :class:`A11yFindings`."""
        from .api import make_request
        from .api_sync import audit_sync, refuse_inside_trio

        refuse_inside_trio("a11y_audit")
        fail_on = check_fail_on(fail_on)
        earlier = baseline_results(baseline) if baseline is not None else self.baseline
        attached = browser_url or self.browser_url
        url = self._page_url(test_id, url_or_html, mapped=attached is None)
        request = make_request(url, level=level, version=version, **request_fields)
        if browser_url is not None:  # this call's own browser: attach for it alone
            result = audit_sync(request, browser_url=browser_url)
        else:
            result = self._session_auditor().audit(request)
        if self.save_to is not None:  # recorded before judging: a failing test records too
            self._results.append(result)
        failing, known = failing_findings(result, fail_on, earlier)
        if failing:
            assert fail_on is not None
            raise A11yFindings(
                failure_message(result, failing, fail_on, known=None if earlier is None else known)
            )
        return result

    def _page_url(self, test_id: str, url_or_html: str, *, mapped: bool) -> str:
        """A URL as it is; HTML (text starting with ``<``) served under the test's id."""
        if not isinstance(url_or_html, str):
            raise TypeError(
                f"url_or_html must be a URL or an HTML string, not {type(url_or_html).__name__}"
            )
        if not url_or_html.lstrip().startswith("<"):
            return url_or_html
        self._names[test_id] += 1
        calls = self._names[test_id]
        name = test_id if calls == 1 else f"{test_id}-{calls}"
        return self._html_pages().add(url_or_html, name, mapped=mapped)

    def _html_pages(self) -> HtmlPages:
        if self._pages is None:
            from .html_pages import HtmlPages

            self._pages = HtmlPages()
        return self._pages

    def _session_auditor(self) -> SyncAuditor:
        """The session's browser, started on first use: attached to ``browser_url``, or
        launched as audit browsers are, mapping :data:`a11y.html_pages.HOST`. A browser that
        died (a page crashed it, the OOM killer) is replaced: that test failed, the next
        ones get a working browser."""
        if self._auditor is not None and not self._auditor.is_connected:
            dead, self._auditor = self._auditor, None
            try:
                dead.close()
            except Exception:  # the browser is gone already; its end has nothing to report
                pass
        if self._auditor is None:
            from .api_sync import SyncAuditor

            if self.browser_url is not None:
                auditor = SyncAuditor(browser_url=self.browser_url)
            else:
                from audit.launch import audit_launch_options

                options = audit_launch_options()
                options.args = [*options.args, self._html_pages().browser_flag()]
                auditor = SyncAuditor(launch_options=options)
            self._auditor = auditor.open()
        return self._auditor

    def close(self) -> None:
        """Write the session's results (``save_to``), stop the browser and the page server;
        each happens even when another fails."""
        auditor, self._auditor = self._auditor, None
        pages, self._pages = self._pages, None
        try:
            self._save_results()
        finally:
            try:
                if auditor is not None:
                    auditor.close()
            finally:
                if pages is not None:
                    pages.stop()

    def _save_results(self) -> None:
        """The results as a JSON array of reports, what ``--a11y-baseline`` reads."""
        if self.save_to is None:
            return
        import json
        from pathlib import Path

        path = Path(self.save_to)
        path.parent.mkdir(parents=True, exist_ok=True)
        reports = [result.model_dump(mode="json") for result in self._results]
        path.write_text(json.dumps(reports, indent=1) + "\n", encoding="utf-8")
