"""a11y-paste-blocked through the real engine: a password field whose inline handler refuses a
paste and a one-time-code field whose paste a document listener cancels, told from a field
whose paste listener only counts and one whose listener cancels the paste to put the trimmed
text in itself; a refused paste beside another way to sign in is left to review."""

from __future__ import annotations

import pytest

from tests.audit.checks.support import audit_pages, interactive_alone, outcome, page

RULE = "a11y-paste-blocked"


@pytest.fixture(autouse=True)
def alone(monkeypatch):
    interactive_alone(monkeypatch, RULE)


FAIL = page(
    '<main><h1>Sign in</h1><form action="/login">'
    '<p><label for="user">Email</label> <input id="user" type="email" autocomplete="username"></p>'
    '<p><label for="pw">Password</label> <input id="pw" type="password" autocomplete="current-password" '
    'onpaste="return false"></p>'
    '<p><label for="otp">One-time code</label> <input id="otp" inputmode="numeric" autocomplete="one-time-code"></p>'
    "<p><button>Sign in</button></p></form></main>"
    "<script>document.addEventListener('paste', (e) => { if (e.target.id === 'otp') e.preventDefault(); });</script>"
)
PASS = page(
    '<main><h1>Create an account</h1><form action="/signup">'
    '<p><label for="pw">Password</label> <input id="pw" type="password" autocomplete="off" '
    'onpaste="this.dataset.pastes = Number(this.dataset.pastes || 0) + 1"></p>'
    '<p><label for="again">Repeat the password</label> <input id="again" type="password" autocomplete="new-password"></p>'
    "<p><button>Create</button></p></form></main>"
    "<script>document.getElementById('again').addEventListener('paste', (e) => {"
    " e.preventDefault(); e.target.value = e.clipboardData.getData('text/plain').trim(); });</script>"
)
REVIEW = page(
    '<main><h1>Sign in</h1><form action="/login">'
    '<p><label for="pw">Password</label> <input id="pw" type="password" onpaste="return false"></p>'
    '<p><button>Sign in</button></p></form><p><button type="button">Sign in with a passkey</button></p></main>'
)
NONE = page(
    '<main><h1>Library</h1><form role="search" action="/search"><label for="q">Search the catalogue</label> '
    '<input id="q" type="search" name="q"> <button>Search</button></form></main>'
)


async def test_paste_blocked(browser, site):
    results = await audit_pages(browser, site, "interactive/paste", {
        "fail": FAIL, "pass": PASS, "review": REVIEW, "inapplicable": NONE,
    }, level="AA", version="2.2")  # the rule is WCAG 2.2 AA: the defaults, stated
    info = {name: [(s.reason, s.message) for s in result.pages[0].interaction.skipped if s.rule_id == RULE]
            for name, result in results.items()}
    found = {f.selector: f for f in outcome(results["fail"], RULE).findings}
    assert sorted(found) == ["#otp", "#pw"], info["fail"]
    for finding in found.values():
        assert (finding.source, finding.success_criteria, finding.level) == ("a11y", ["3.3.8", "3.3.9"], "AA")
        assert finding.impact == "serious"
        assert "let users paste into the field and let password managers fill it" in finding.failure_summary
    assert found["#pw"].failure_summary.startswith(
        "Pasting into input#pw ('Password') was refused: the page cancelled the paste event")
    assert found["#otp"].failure_summary.startswith(
        "Pasting into input#otp ('One-time code') was refused: the page cancelled the paste event")

    passed = outcome(results["pass"], RULE)
    assert passed.clean and passed.tested, info["pass"]
    review = outcome(results["review"], RULE)
    assert not review.findings and [r.selector for r in review.review] == ["#pw"], info["review"]
    assert "another way to sign in ('Sign in with a passkey')" in review.review[0].failure_summary
    inapplicable = outcome(results["inapplicable"], RULE)
    assert inapplicable.clean and not inapplicable.tested, info["inapplicable"]
