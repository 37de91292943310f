"""A CSS selector that matches every instance of a problem, for a person to read and for a
``document.querySelectorAll`` to find them all.

In the top document it is the component's selector: the ancestors and the element the
signature is made of (every instance has them, so it matches every instance). Inside frames
and shadow roots, each instance's selector (one hop per frame or shadow root, joined by ``' >>> '``) is
generalized compound by compound: ids, attribute values, positions and state or generated
classes dropped (:func:`.signature.generalized_compound`). Removing conditions only ever
widens a selector, so a generalized selector still matches its element. The pattern is
then the longest tail of compounds, with their combinators, that all instances share; a
tail of a selector that matches an element matches it too. Hops before the last are kept
when every instance has the same ones, else written ``*``.
"""

from __future__ import annotations

from collections.abc import Sequence

from .signature import selector_steps

HOP = " >>> "


def _render(steps: Sequence[tuple[str, str]]) -> str:
    text = ""
    for index, (combinator, compound) in enumerate(steps):
        if index == 0:
            text = compound
        elif combinator == " ":
            text += f" {compound}"
        else:
            text += f" {combinator} {compound}"
    return text


def _common_tail(paths: Sequence[Sequence[tuple[str, str]]]) -> list[tuple[str, str]]:
    """The longest run of last compounds equal in every path; the combinator joining two
    kept compounds must agree in every path too."""
    compounds: list[str] = []
    joins: list[str] = []
    for back in range(1, min(len(path) for path in paths) + 1):
        found = {path[-back][1] for path in paths}
        if len(found) != 1 or not next(iter(found)):
            break
        if back > 1:
            join = {path[-back + 1][0] for path in paths}
            if len(join) != 1:
                break
            joins.insert(0, join.pop())
        compounds.insert(0, found.pop())
    if not compounds:
        return []
    return [("", compounds[0]), *zip(joins, compounds[1:], strict=True)]


def selector_pattern(selectors: Sequence[str], component_css: str, own_compound: str) -> str:
    """The pattern matching every selector of ``selectors``.

    In the top document, that is the component's own selector (``component_css``, made
    from the ancestors every instance shares, see :func:`.signature.folded_path`), when it
    has one. Inside frames and shadow roots the ancestors do not make one CSS selector, so
    the pattern is the tail of the instances' own selectors, hop by hop; ``own_compound``
    (tag and component classes, shared by every instance) when they share no tail."""
    if not selectors:
        return component_css or own_compound or "*"
    hops = [selector.split(HOP) for selector in selectors]
    if component_css and all(len(path) == 1 for path in hops):
        return component_css
    last = [selector_steps(path[-1]) for path in hops]
    tail = _common_tail(last) if all(last) else []
    pattern = _render(tail) if tail else own_compound or "*"
    if pattern.startswith((".", "[", ":")) and own_compound[:1].isalpha():
        pattern = own_compound.split(".")[0] + pattern  # every instance has the same tag
    frames = {tuple(path[:-1]) for path in hops}
    if len(frames) == 1:
        prefix = list(next(iter(frames)))
    else:
        prefix = ["*"] * min(len(path) - 1 for path in hops)
    return HOP.join([*prefix, pattern])
