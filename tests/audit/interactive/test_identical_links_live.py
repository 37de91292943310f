"""a11y-identical-links through the real engine: links with one name in one context resolved
(same address, redirects, identical copies pass) and different documents left to review;
links that may act are never fetched."""

from __future__ import annotations

import pytest

from audit import engine, interactive
from tests.audit.checks.support import audit_pages, outcome, page
from tests.support.site import Response

RULE = "a11y-identical-links"


@pytest.fixture(autouse=True)
def only_this_check(monkeypatch):
    """This check alone in the interaction phase: the others' time is not this test's."""
    monkeypatch.setattr(engine, "selected_interactive", lambda version, level: [
        check for check in interactive.selected(version, level) if check.rule_id == RULE])


def targets(site) -> None:
    menu = page("<main><h1>Menu</h1><p>Rye, spelt and wheat loaves, baked every morning.</p></main>", "Menu - Harbour Bakery")
    site.route("/il/chat", page("<main><h1>Chat with us</h1><p>Chat is open from nine to five.</p></main>", "Chat"))
    site.route("/il/phone", page("<main><h1>Call us</h1><p>Phone 555 0100 from nine to five.</p></main>", "Call"))
    site.route("/il/copy1", menu)
    site.route("/il/copy2", menu)
    site.route("/il/prices", page("<main><h1>Prices</h1><p>A rye loaf costs four euros.</p></main>", "Prices"))
    site.route("/il/old-prices", Response(b"", status=302, headers={"Location": "/il/prices"}))
    site.route("/il/logout", page("<p>Signed out.</p>", "Signed out"))


async def test_identical_links(browser, site):
    targets(site)
    results = await audit_pages(browser, site, "interactive/identical-links", {
        "review": page('<main><p id="ways">Reach us: <a id="chat" href="/il/chat">Contact us</a> by chat or '
                       '<a href="/il/phone">Contact us</a> by phone.</p></main>'),
        # One address; two copies of one document; an address that redirects to the other.
        "pass": page('<main><p><a href="/il/copy1">Our menu</a>, or see <a href="/il/copy1">our menu</a>.</p>'
                     '<p>Read <a href="/il/copy1">Menu</a> or <a href="/il/copy2">Menu</a>.</p>'
                     '<p>See <a href="/il/old-prices">Prices</a> or <a href="/il/prices">Prices</a>.</p></main>'),
        # A link that may act is not followed: left to a person.
        "risky": page('<main><p><a href="/il/logout">Leave</a> or <a href="/il/logout?all=1">Leave</a></p></main>'),
        # One name, but each in its own list item: different contexts.
        "inapplicable": page('<main><ul><li>Rye bread. <a href="/il/copy1">Read more</a></li>'
                             '<li>Spelt bread. <a href="/il/prices">Read more</a></li></ul></main>'),
    })
    review = outcome(results["review"], RULE)
    assert not review.findings and len(review.review) == 1
    [item] = review.review
    assert (item.source, item.success_criteria, item.level, item.selector) == ("a11y", ["2.4.4"], "A", "#chat")
    assert item.act_rules == []
    assert '2 links named "Contact us" in the same context lead to different documents' in item.failure_summary
    assert '/il/chat ("Chat"), /il/phone ("Call")' in item.failure_summary
    passed = outcome(results["pass"], RULE)
    assert passed.clean and passed.tested
    risky = outcome(results["risky"], RULE)
    assert len(risky.review) == 1 and "could not be compared" in risky.review[0].failure_summary
    assert not [r for r in site.log if r.path == "/il/logout"]
    inapplicable = outcome(results["inapplicable"], RULE)
    assert inapplicable.clean and not inapplicable.tested
