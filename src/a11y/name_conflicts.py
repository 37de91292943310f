"""Other installed distributions that claim one of our top-level package names.

The distribution installs the top-level packages ``a11y``, ``audit``, ``cdpdriver``, ``jobs``
and ``tools``. ``tools`` and ``audit`` are also the names of unrelated distributions on PyPI;
installed into the same environment, whichever came last overwrites the other's files and
both break in ways that look like bugs of ours. ``a11y doctor`` names such a neighbour, so
the user can move a11y into an environment of its own (pipx, ``uv tool``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from importlib.metadata import packages_distributions

#: The import packages this distribution puts at the top level of site-packages.
TOP_LEVEL_NAMES = ("a11y", "audit", "cdpdriver", "jobs", "tools")
#: Our distribution's name, as packaging normalises it.
OWN_DISTRIBUTION = "a11y"


def _normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def foreign_owners(owners: Mapping[str, Sequence[str]] | None = None) -> dict[str, list[str]]:
    """``{top-level name: [other distributions that own it]}`` for each of our names that
    another distribution claims too; empty when there is no clash.

    ``owners`` is a top-level name -> distributions mapping, by default the current
    environment's (:func:`importlib.metadata.packages_distributions`).
    """
    if owners is None:
        owners = packages_distributions()
    clashes: dict[str, list[str]] = {}
    for name in TOP_LEVEL_NAMES:
        others = sorted({d for d in owners.get(name, ()) if _normalised(d) != OWN_DISTRIBUTION})
        if others:
            clashes[name] = others
    return clashes


def describe(clashes: Mapping[str, Sequence[str]]) -> list[str]:
    """One warning line per clashing name, and the remedy once."""
    if not clashes:
        return []
    lines = [
        f"warning: the top-level package `{name}` is also installed by {', '.join(others)}; "
        "the two overwrite each other's files"
        for name, others in clashes.items()
    ]
    lines.append(
        "  remedy: install a11y into an environment of its own: "
        "`pipx install a11y-<version>-py3-none-any.whl` or `uv tool install a11y-<version>-py3-none-any.whl`"
    )
    return lines
