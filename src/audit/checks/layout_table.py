"""a11y-layout-table: tables hold data, not the page's layout.

A best practice, reported only when a request asks for best practices: a layout table is not
a WCAG failure when it is marked ``role="presentation"`` and has no data-table markup (F46), but
CSS layout reflows on small screens and at 400% zoom (1.4.10) where a table cannot, and a
table that is not marked is announced row by row and cell by cell.

The check applies to a visible ``table`` of more than one row with a row of more than one
cell. It fails one that says it is for layout (``role="none"`` or ``"presentation"``), and
one that has no data-table markup (no ``th``, ``caption``, ``thead``, ``tfoot``, ``summary``,
``scope`` or ``headers``, no role), is not a data table by axe-core's heuristics, and holds page
structure in its cells: a nested table, a heading, a form, navigation, sectioning or landmark
elements, a frame. A table with plain cells and no headers may be a data table that lacks its
headers (axe's table rules judge that), and passes here.
"""

from cdpdriver.scripts import load_script

from .spec import Check

_LAYOUT = load_script(__package__, "layout_table")

CHECK = Check(
    rule_id="a11y-layout-table",
    act_rules=(),
    criteria=(),
    best_practice=True,
    impact="minor",
    description="Ensures tables are not used to lay out the page",
    help="Use CSS for page layout, not tables",
    messages={
        "pass": "The table is not used for layout",
        "fail": "This table lays out the page (it is marked presentational, or its cells hold "
        "page structure and no data-table markup); use CSS layout, which reflows",
    },
    script=f"({_LAYOUT})('evaluate')",
    matches=f"({_LAYOUT})('matches')",
    selector="table",
)
