"""a11y-part-language through the real engine: an element's lang checked against the language
of its text, and long passages in another language without a lang of their own found; names,
short quotations and ambiguous phrases left alone."""

from __future__ import annotations

import pytest

from audit import engine, interactive
from audit.interactive import language_id
from tests.audit.checks.support import audit_pages, outcome, page

RULE = "a11y-part-language"
INTRO = "<h1>Dutch idioms</h1><p>Dutch has many idioms about animals and the weather.</p>"
ENGLISH = (
    "<p>Our bakers start at four in the morning, because rye dough needs a long rest before it goes into "
    "the oven. A loaf baked that way keeps its crumb moist for days, and the crust stays crisp if you wrap "
    "it loosely in linen. Our head baker learnt the trade in Hamburg and wrote down what he was taught:</p>"
)
GERMAN = (
    "Der Bäcker steht jeden Morgen um vier Uhr auf, weil der Teig für das Roggenbrot eine lange Zeit "
    "braucht, bevor er in den heißen Ofen geschoben werden kann."
)


@pytest.fixture(autouse=True)
def only_this_check(monkeypatch):
    """This check alone in the interaction phase: the others' time is not this test's."""
    monkeypatch.setattr(engine, "selected_interactive", lambda version, level: [
        check for check in interactive.selected(version, level) if check.rule_id == RULE])


@pytest.fixture(autouse=True)
def model_loaded():
    """The identifier's model loaded before the first page: a process loads it once, on a
    thread of its own, and a page the phase reaches before that gets no verdict."""
    language_id.rank("warm up")


async def test_part_language(browser, site):
    results = await audit_pages(browser, site, "interactive/part-language", {
        # Marked as French, but English.
        "fail-element": page(f'<main>{INTRO}<p id="meaning" lang="fr">It literally means that he went to roost '
                             "with the chickens, but it means that he went to bed early.</p></main>"),
        # A German paragraph in an English page, with no lang of its own.
        "fail-passage": page(f'<main>{INTRO}{ENGLISH}<p id="quote">{GERMAN}</p></main>'),
        # A Dutch phrase marked as French: too short to fail, a clear lead to review.
        "review": page(f'<main>{INTRO}<p>The phrase <span id="phrase" lang="fr">Hij ging met de kippen op stok</span> '
                       "is about going to bed early.</p></main>"),
        # Right languages; English words that are also a French sentence; names; a short
        # unmarked greeting.
        "pass": page(
            f'<main>{INTRO}<p lang="de">{GERMAN}</p><p>The sentence <span lang="fr">Paul put dire comment on '
            'tape</span> is French too. Our bakers Jürgen Müller and Søren Kierkegaard say ¡buen provecho!</p></main>'),
        "inapplicable": page("<main><h1>Opening hours</h1><p>Monday to Friday.</p></main>"),
    })
    [finding] = outcome(results["fail-element"], RULE).findings
    assert (finding.source, finding.success_criteria, finding.level) == ("a11y", ["3.1.2"], "AA")
    assert finding.selector == "#meaning" and finding.act_rules == ["off6ek"]
    assert 'lang="fr" declares French' in finding.failure_summary and "reads as English (en" in finding.failure_summary
    [finding] = outcome(results["fail-passage"], RULE).findings
    assert finding.selector == "#quote"
    assert "reads as German (de" in finding.failure_summary and "no lang of its own" in finding.failure_summary
    assert 'inherits lang="en"' in finding.failure_summary and 'lang="de"' in finding.failure_summary
    review = outcome(results["review"], RULE)
    assert not review.findings and [r.selector for r in review.review] == ["#phrase"]
    passed = outcome(results["pass"], RULE)
    assert passed.clean and passed.tested
    inapplicable = outcome(results["inapplicable"], RULE)
    assert inapplicable.clean and not inapplicable.tested
