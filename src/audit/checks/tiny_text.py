"""a11y-tiny-text: text is not rendered below 9 CSS pixels.

A best practice, reported only when a request asks for best practices: WCAG sets no minimum
text size (1.4.4 asks that text can be resized to 200%, which browser zoom usually gives), but
text under 9 pixels is hard to read for most people and unreadable for many without zoom.

The check applies to an HTML element with text of its own that has a letter (digits alone,
such as a footnote mark, are left out), outside SVG (whose text scales with its viewBox) and
MathML, and visible on screen: text that is hidden, clipped away (the visually hidden pattern
of screen-reader-only text), off screen or transparent is not text anyone sees. It fails when
the font size, scaled by any CSS transform, is below 9 pixels; text under 2 pixels is a way of
hiding text, not small text, and is not judged.
"""

from cdpdriver.scripts import load_script

from .spec import Check

_TINY = load_script(__package__, "tiny_text")

CHECK = Check(
    rule_id="a11y-tiny-text",
    act_rules=(),
    criteria=(),
    best_practice=True,
    impact="minor",
    description="Ensures visible text is not rendered below 9 CSS pixels",
    help="Do not render text smaller than 9 pixels",
    messages={
        "pass": "The text is 9 pixels or larger",
        "fail": "The text is rendered at ${data.size} pixels, below 9: too small to read for "
        "many users",
    },
    script=f"({_TINY})('evaluate')",
    matches=f"({_TINY})('matches')",
    selector="body *",
    exclude_hidden=False,
)
