"""The plugin's session state in process, on real Chromium: HTML pages named by test id, a
browser that dies replaced for the next test, and the last one killed by ``close()``."""

from __future__ import annotations

import os
import signal
import time
import urllib.request

import pytest

from a11y.pytest_audits import A11yFindings, SessionAudits

CLEAN = '<!doctype html><html lang="en"><title>Fine</title><main><h1>Fine</h1></main></html>'
BAD = '<!doctype html><html lang="en"><title>Bad</title><main><h1>Bad</h1><img src="x.png"></main></html>'
#: Upper bound of the wait for the driver to notice a killed browser (a hang guard only).
NOTICE_TIMEOUT = 30.0


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_session_names_pages_by_test_and_replaces_a_dead_browser():
    audits = SessionAudits()
    last_pid = None
    try:
        first = audits.audit("tests/test_x.py::test_a", CLEAN)
        assert (
            first.url == "http://a11y-pytest.test/tests-test_x.py-test_a" and first.findings == []
        )
        pid = audits.browser_pid
        assert audits.launched and pid is not None

        os.kill(pid, signal.SIGKILL)  # as a crash or the OOM killer would
        deadline = time.monotonic() + NOTICE_TIMEOUT
        while audits._auditor.is_connected:  # the driver notices the exit on its own
            assert time.monotonic() < deadline, "the driver never noticed the killed browser"
            time.sleep(0.01)

        second = audits.audit("tests/test_x.py::test_a", BAD, fail_on=None)
        assert second.url.endswith("/tests-test_x.py-test_a-2")  # a second page of one test
        assert [f.rule_id for f in second.findings] == ["image-alt"]
        last_pid = audits.browser_pid
        assert last_pid not in (None, pid)
        with pytest.raises(A11yFindings, match=r"\[critical\] image-alt: img"):
            audits.audit("tests/test_x.py::test_b", BAD)
        page_server = audits._pages
        assert page_server is not None
    finally:
        audits.close()
    assert last_pid is not None and _gone(last_pid), "close() left the browser running"
    with pytest.raises(OSError):  # the page server is stopped too
        urllib.request.urlopen(
            f"http://127.0.0.1:{page_server.port}/tests-test_x.py-test_a", timeout=5
        )
    audits.close()  # idempotent
