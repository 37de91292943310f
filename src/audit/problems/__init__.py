"""Problems, not instances: findings of one rule on elements that are the same component,
grouped wherever they repeat across the pages of a run (docs/problems.md).

One module per job: :mod:`.signature` (a component's structural or style signature and the
problem id made from it, pure), :mod:`.assign` (the id and a readable component on each
item of a page), :mod:`.pattern` (a selector matching a problem's instances),
:mod:`.where` (where the fix most likely lives), :mod:`.priority` (the documented order),
:mod:`.build` (findings to ``problems[]``, streaming) and :mod:`.issues` (one problem as one
issue for a tracker: JSON and CSV). The models are in :mod:`.schema`.

This package imports nothing at its top level, so :mod:`audit.models` can import
:mod:`.schema` without a cycle.
"""
