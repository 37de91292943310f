"""a11y-error-identification through the real engine: forms that, sent with a required field
empty, only turn its border red (one of them also posting what it holds, which must never reach
the server), told from look-alikes that say in text what is wrong (tied to the field, or the
browser's own message), one whose message is not tied to the field, and forms the rule leaves
alone (search, nothing required); and a page whose requests the audit pauses already (its own
headers), where the check does not act."""

from __future__ import annotations

import pytest

from tests.audit.checks.support import audit_pages, interactive_alone, outcome, page

RULE = "a11y-error-identification"


@pytest.fixture(autouse=True)
def alone(monkeypatch):
    interactive_alone(monkeypatch, RULE)


STYLE = "<style>input { border: 2px solid #767676; } input.error { border-color: #d93025; }</style>"


def contact(handler: str, *, novalidate: bool = True, above: str = "", described: bool = False) -> str:
    """A contact form whose submit handler (after preventing the submission) runs ``handler``."""
    describedby = ' aria-describedby="email-error"' if described else ""
    return page(
        f'<main><h1>Contact</h1>{above}<form id="contact" action="/send"{" novalidate" if novalidate else ""}>'
        f'<p><label for="email">Email</label> <input id="email" type="email" required{describedby}>'
        f'{"<span id=email-error></span>" if described else ""}</p>'
        '<p><label for="msg">Message</label> <textarea id="msg"></textarea></p>'
        "<p><button>Send</button></p></form></main>"
        "<script>document.getElementById('contact').addEventListener('submit', (event) => {"
        " event.preventDefault(); const field = document.getElementById('email');"
        f" const empty = !field.value; field.classList.toggle('error', empty); {handler} }});</script>",
        head=STYLE,
    )


FAIL = contact("")
FAIL_POST = contact(
    "fetch('/api/contact', {method: 'POST', body: JSON.stringify({email: field.value})}).catch(() => {});"
    " navigator.sendBeacon('/api/beacon', 'sent'); const xhr = new XMLHttpRequest();"
    " xhr.open('PUT', '/api/xhr'); xhr.send('sent');"
)
PASS_DESCRIBED = contact(
    "document.getElementById('email-error').textContent = empty ? 'Enter your email address' : '';",
    described=True,
)
PASS_NATIVE = page(
    '<main><h1>Contact</h1><form id="contact" action="/send"><p><label for="email">Email</label> '
    '<input id="email" type="email" required></p><p><button>Send</button></p></form></main>'
)
REVIEW = contact(
    "document.getElementById('problem').textContent = empty ? 'There is a problem' : '';",
    above='<p id="problem"></p>',
)
NONE = page(
    '<header><form role="search" action="/find"><input type="search" name="q" aria-label="Search" required> '
    "<button>Search</button></form></header>"
    '<main><h1>Newsletter</h1><form action="/subscribe"><p><label for="name">Name</label> <input id="name"></p>'
    "<p><button>Subscribe</button></p></form>"
    # Never pressed, whatever it shows: its words say it ends something.
    '<form id="close" action="/account/close" novalidate><p><label for="why">Why are you leaving?</label> '
    '<input id="why" required></p><p><button>Delete my account</button></p></form></main>'
    "<script>document.getElementById('close').addEventListener('submit', (event) => {"
    " event.preventDefault(); document.getElementById('why').style.borderColor = '#d93025'; });</script>"
)


async def test_error_identification(browser, site):
    results = await audit_pages(browser, site, "interactive/error-identification", {
        "fail": FAIL, "post": FAIL_POST, "described": PASS_DESCRIBED, "native": PASS_NATIVE,
        "review": REVIEW, "inapplicable": NONE,
    }, level="A")
    info = {name: [(s.reason, s.message) for s in result.pages[0].interaction.skipped if s.rule_id == RULE]
            for name, result in results.items()}
    for name in ("fail", "post"):
        found = outcome(results[name], RULE).findings
        assert [f.selector for f in found] == ["#email"], (name, info[name], outcome(results[name], RULE))
        finding = found[0]
        assert (finding.source, finding.success_criteria, finding.level) == ("a11y", ["3.3.1", "1.4.1"], "A")
        assert finding.impact == "serious"
        assert finding.failure_summary.startswith(
            "Submitting form#contact with the required field input#email ('Email') empty turned its border from "
            "rgb(118, 118, 118) 2px to rgb(217, 48, 37) 2px and showed no text"), finding.failure_summary
    assert "refused the POST request it sent to" in outcome(results["post"], RULE).findings[0].failure_summary
    # The page's fetch, beacon and request were refused before they left the browser: the
    # server never saw them.
    assert [(r.method, r.path) for r in site.log if r.path.startswith("/api/")] == []

    for name in ("described", "native"):
        passed = outcome(results[name], RULE)
        assert passed.clean and passed.tested, (name, info[name], passed)
    review = outcome(results["review"], RULE)
    assert not review.findings and [r.selector for r in review.review] == ["#email"], (info["review"], review)
    assert "'There is a problem'" in review.review[0].failure_summary
    assert "not tied to the field" in review.review[0].failure_summary
    inapplicable = outcome(results["inapplicable"], RULE)
    assert inapplicable.clean and not inapplicable.tested, inapplicable


async def test_error_identification_leaves_pages_whose_requests_are_paused(browser, site):
    """With the audit's own headers on, the page's requests are paused already (audit.auth):
    a second user of the Fetch domain would take them, so the check does not act, and says so
    in the page's skipped checks."""
    results = await audit_pages(browser, site, "interactive/error-identification-auth", {"fail": FAIL},
                                level="A", auth={"headers": {"X-Audit": "1"}})
    held = outcome(results["fail"], RULE)
    assert held.clean and not held.tested, held
    skipped = {skip.rule_id: skip for skip in results["fail"].pages[0].interaction.skipped}
    assert skipped[RULE].reason == "unsupported" and "pauses this page's requests" in skipped[RULE].message
