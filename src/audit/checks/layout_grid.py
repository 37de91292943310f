"""a11y-layout-grid: data in rows and columns is a table, not boxes or spaces lined up.

WCAG 1.3.1 Info and Relationships (A); technique H51 (table markup for tabular information).
No ACT rule covers it.

Rows of ``div``s laid out in columns by CSS (grid, flex, inline blocks, ``display: table``)
show a table to the eye, but a screen reader reads the cells one after another with no row,
column or header to relate them; so do columns typed into a ``pre`` with runs of spaces.
axe-core judges ``table`` elements and ARIA tables only. The check measures where the boxes
are drawn: three or more stacked rows of the same number (two or more) of short text cells,
side by side and lined up in columns, with no table, grid or list semantics around them. It
fails only when the first row is set apart in bold above plain rows, a header row that leaves
no doubt; other such grids, and ``pre`` text (not code) whose lines share columns, need
review: a person decides whether the content is tabular.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-layout-grid",
    act_rules=(),
    criteria=("1.3.1",),
    level="A",
    since="2.0",
    impact="serious",
    description="Ensures data shown in rows and columns is marked up as a table",
    help="Tabular data must be a table, not boxes or spaces lined up in columns",
    messages={
        "pass": "No rows and columns drawn without table semantics",
        "fail": "${data.rows} rows of ${data.columns} cells under a header row are drawn with "
        "boxes: use a table with th header cells (or ARIA table roles)",
        "incomplete": "Text is laid out in rows and columns without table semantics; if it is "
        "tabular data, use a table with header cells",
    },
    script=load_script(__package__, "layout_grid"),
    matches=load_script(__package__, "layout_grid_applies"),
    selector="div, section, pre",
)
