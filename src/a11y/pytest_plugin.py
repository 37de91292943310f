"""The pytest plugin, registered through the ``pytest11`` entry point: installing the package
is enough for ``def test_home(a11y_audit): a11y_audit("http://127.0.0.1:8000/")``.

Fixtures: ``a11y_audit`` (a callable per test) and ``a11y_session`` (the session's state:
one browser for the whole session, started by the first audit and killed when the session
ends). Options, in the group ``a11y``: ``--a11y-baseline=FILE`` (only findings new since
that report fail), ``--a11y-save-baseline=FILE`` (write the session's results as the next
run's baseline) and ``--a11y-browser-url=URL`` (audit on a running Chromium instead of
launching one).

The plugin loads in every pytest run of an environment that has the package, this
repository's own suite included, so this module imports nothing but pytest, defines no
autouse fixture and starts nothing until a test asks for ``a11y_audit``. The work is in
:mod:`a11y.pytest_audits`; the fixture runs Trio inside, so it serves plain (sync) tests.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from audit.models import AuditResult

    from .pytest_audits import SessionAudits


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("a11y", "accessibility audits (a11y_audit fixture)")
    group.addoption(
        "--a11y-baseline",
        metavar="FILE",
        default=None,
        help="JSON report (or array of reports) of an earlier run: only findings new since it fail",
    )
    group.addoption(
        "--a11y-save-baseline",
        metavar="FILE",
        default=None,
        help="write every audit result of the session to FILE (a JSON array of reports), "
        "the baseline of later runs",
    )
    group.addoption(
        "--a11y-browser-url",
        metavar="URL",
        default=None,
        help="audit on this running Chromium (http://host:port of --remote-debugging-port, "
        "or its ws:// URL) instead of launching one",
    )


_BASELINE = pytest.StashKey["list[AuditResult] | None"]()


def pytest_configure(config: pytest.Config) -> None:
    """Read ``--a11y-baseline`` before any test runs: a file that cannot be used stops the
    run with one line saying why, rather than failing every test that audits."""
    path = config.getoption("a11y_baseline", None)
    if not path:
        return
    from .baseline_cli import BaselineError
    from .pytest_audits import baseline_results

    try:
        config.stash[_BASELINE] = baseline_results(path)
    except BaselineError as exc:
        raise pytest.UsageError(f"--a11y-baseline: {exc}") from None


@pytest.fixture(scope="session")
def a11y_session(pytestconfig: pytest.Config) -> Iterator[SessionAudits]:
    """The session's audits: one browser, started by the first audit, ended with the session."""
    from .pytest_audits import SessionAudits

    audits = SessionAudits(
        browser_url=pytestconfig.getoption("a11y_browser_url"),
        baseline=pytestconfig.stash.get(_BASELINE, None),
        save_to=pytestconfig.getoption("a11y_save_baseline"),
    )
    try:
        yield audits
    finally:
        audits.close()


@pytest.fixture
def a11y_audit(
    a11y_session: SessionAudits, request: pytest.FixtureRequest
) -> Callable[..., AuditResult]:
    """``a11y_audit(url_or_html, level="AA", version="2.2", baseline=None, fail_on="serious",
    browser_url=None, **request_fields)``: audit a URL or an HTML string and fail the test
    when findings at or above ``fail_on`` exist (with a baseline, only new ones); otherwise
    return the ``AuditResult``. ``request_fields`` are those of ``POST /audit``."""
    from .pytest_audits import A11yFindings

    test_id = request.node.nodeid

    def a11y_audit(
        url_or_html: str,
        level: str = "AA",
        version: str = "2.2",
        baseline: Any = None,
        fail_on: str | None = "serious",
        browser_url: str | None = None,
        **request_fields: Any,
    ) -> AuditResult:
        try:
            return a11y_session.audit(
                test_id,
                url_or_html,
                level=level,
                version=version,
                baseline=baseline,
                fail_on=fail_on,
                browser_url=browser_url,
                **request_fields,
            )
        except A11yFindings as exc:
            message = str(exc)
        pytest.fail(message, pytrace=False)  # outside the except: no "during handling" echo

    return a11y_audit
