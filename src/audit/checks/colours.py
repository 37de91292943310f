"""The colour helpers our contrast checks share (``js/colour_behind.js``), composed with a check's
``evaluate`` function, which then takes them as its second argument."""

from cdpdriver.scripts import load_script


def with_colours(evaluate: str) -> str:
    """An axe ``evaluate`` function calling ``evaluate(node, colours)``, ``this`` kept (for
    ``this.data``)."""
    colours = load_script(__package__, "colour_behind")
    return f"(function (node) {{ return ({evaluate}).call(this, node, ({colours})(axe)); }})"
