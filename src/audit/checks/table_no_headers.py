"""a11y-table-no-headers: a data table has header cells.

WCAG 1.3.1 Info and Relationships (A); failure technique F91 (table headers not correctly
marked up). No ACT rule covers it.

A table whose first row or column names what the cells hold, but as ``td``s, gives a screen
reader nothing to announce as a cell's header: each number is read without what it counts.
axe-core's ``td-has-header`` (adopted, as needs review) looks only at tables its heuristics
call data tables and of at least 3 by 3 cells, and ``th-has-data-cells`` only at tables that
have headers. The check fails a table that keeps its table role, holds data (two or more rows
with two or more short text cells each, text in at least half of the filled cells, and no
images, controls, block content or nested tables, which layout tables hold) and has no header
cell at all: no ``th``, no ``columnheader``/``rowheader`` role, no ``scope`` or ``headers``.
"""

from cdpdriver.scripts import load_script

from .spec import Check

CHECK = Check(
    rule_id="a11y-table-no-headers",
    act_rules=(),
    criteria=("1.3.1",),
    level="A",
    since="2.0",
    impact="serious",
    description="Ensures tables of data have header cells",
    help="Data tables must mark their headers with th (or header roles)",
    messages={
        "pass": "The table has header cells, or holds no data",
        "fail": "This table holds data in rows and columns but has no header cell: mark the "
        "cells that name a row or column as th",
    },
    script=load_script(__package__, "table_no_headers"),
    matches=load_script(__package__, "table_applies"),
    selector="table",
)
