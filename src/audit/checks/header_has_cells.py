"""a11y-header-has-cells: every header of an ARIA table heads at least one cell.

ACT rule d0f69e (Table header cell has assigned cells); WCAG 1.3.1 Info and Relationships (A).

axe-core's ``th-has-data-cells`` looks at ``<table>`` elements only. Tables, grids and tree grids
built from ARIA roles (``role="grid"`` on a ``div``, rows of ``gridcell``) are not judged: a
``columnheader`` with no cell in its column tells a screen-reader user that a column of data is
there when none is. The check lays out the rows the table owns (``aria-colindex`` and
``aria-colspan`` honoured) and fails a visible column header without a cell (a data cell or a row
header) in its column, or a row header without another cell in its row. A table with no data
cell at all (still empty, or loading) passes: there is nothing yet to assign.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-header-has-cells",
    act_rules=("d0f69e",),
    criteria=("1.3.1",),
    level="A",
    since="2.0",
    impact="serious",
    description="Ensures each column or row header of an ARIA table, grid or tree grid has "
    "cells it is the header of",
    help="Headers of ARIA tables must head at least one cell",
    messages={
        "pass": "Every header has cells in its column or row",
        "fail": "Some headers have no cell in their column or row",
    },
    script=load_script(__package__, "header_has_cells"),
    selector='[role~="table"]:not(table), [role~="grid"]:not(table), [role~="treegrid"]:not(table)',
)
