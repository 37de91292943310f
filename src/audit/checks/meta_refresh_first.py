"""a11y-meta-refresh-first: only the first valid meta refresh is judged.

ACT rules bc659a (Meta element has no refresh delay) and bisz58 (the same, no exception); WCAG
2.2.1 Timing Adjustable (A) and 2.2.4 Interruptions (AAA).

A browser acts on the first ``<meta http-equiv="refresh">`` whose content is a valid refresh
and ignores every later one, so a later element with a short delay redirects nobody. axe-core's
``meta-refresh`` and ``meta-refresh-no-exceptions`` judge every such element; the override
narrows both to the one the browser uses.
"""

from cdpdriver.scripts import load_script

from .spec import Override

OVERRIDE = Override(
    name="a11y-meta-refresh-first",
    rules=("meta-refresh", "meta-refresh-no-exceptions"),
    part="matches",
    targets=("meta-refresh", "meta-refresh-no-exceptions"),
    script=load_script(__package__, "meta_refresh_first"),
    act_rules=("bc659a", "bisz58"),
    criteria=("2.2.1", "2.2.4"),
    description="Judges only the first valid meta refresh, the one a browser acts on",
)
