"""a11y-hidden-visible-text: text on screen is not hidden from screen readers.

WCAG 1.3.1 Info and Relationships (A): information shown to sighted users must be available
programmatically. No ACT rule covers it; axe-core checks only that nothing *focusable* is
inside ``aria-hidden`` (``aria-hidden-focus``).

``aria-hidden="true"`` removes an element and everything in it from the accessibility tree.
On an icon or a duplicate that is right; on a notice, a price or a step of instructions that
sighted users read, screen reader users get nothing. The check applies to the outermost
``aria-hidden="true"`` element that shows three words or more on screen (visible, with a box;
icon-font glyphs and symbols aside):

- ``passed``: the same words reach screen readers another way: anywhere in the page's text
  outside ``aria-hidden`` (a visually hidden copy, the original of a carousel's clone), in an
  ``alt``, ``title``, ``aria-label`` or ``aria-description``, or in the accessible name of the
  link or button it sits in (``<a aria-label="Read more about pricing"><span
  aria-hidden="true">Read more</span></a>``);
- ``cantTell``: the element, or one of its three nearest ancestors, carries a label or a
  description of its own (``aria-label``, ``aria-labelledby``, ``aria-describedby``): the
  content may be given there in other words;
- ``failed``: none of these.
"""

from cdpdriver.scripts import load_script

from .spec import Check

_HIDDEN = load_script(__package__, "hidden_visible_text")

CHECK = Check(
    rule_id="a11y-hidden-visible-text",
    act_rules=(),
    criteria=("1.3.1",),
    level="A",
    since="2.0",
    impact="serious",
    description="Ensures text shown on screen is not hidden from screen readers with aria-hidden",
    help="Visible text must not be hidden from assistive technology",
    messages={
        "pass": "The hidden text reaches screen readers another way",
        "fail": 'The text "${data.sample}" is shown on screen but hidden from screen readers by '
        'aria-hidden="true", and nothing else on the page says it: remove aria-hidden, or give '
        "the same words to screen readers",
        "incomplete": 'The text "${data.sample}" is hidden from screen readers by aria-hidden="true"; '
        "a label around it may say it in other words: check that it does",
    },
    script=f"({_HIDDEN})('evaluate')",
    matches=f"({_HIDDEN})('matches')",
    selector='[aria-hidden="true"]',
    exclude_hidden=False,  # aria-hidden is what the check is about: axe would skip these elements
)
