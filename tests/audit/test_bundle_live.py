"""The impacts read from the bundle's text are the ones axe itself holds once loaded."""

from __future__ import annotations

from audit.axe import axe_world, inject
from audit.axe_bundle import rule_impacts
from audit.interactive import interactive_impacts
from cdpdriver import evaluate


async def test_bundle_impacts_match_axes_own_rule_table(page):
    world = await axe_world(page.session, page.main_frame_id)
    await inject(page.session, world)
    loaded = await evaluate(
        page.session,
        "Object.fromEntries(axe._audit.rules.filter(r => r.impact).map(r => [r.id, r.impact]))",
        world,
    )
    # Our interactive checks act outside axe (audit.interactive): the bundle's table has them too.
    assert {**loaded, **interactive_impacts()} == rule_impacts()
