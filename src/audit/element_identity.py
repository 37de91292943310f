"""The page-side half of fingerprints and problems: each finding's element described while
the page is still open, in the frames and isolated worlds axe ran in (:mod:`audit.axe`).

One call per frame covers every element of that frame (``js/element_identity.js``). Identity
is best effort by design: an element not found, a frame that went away, a call that fails
or takes too long just leaves its elements out, and :mod:`audit.fingerprints` falls back to
their selector-free parts. Only cancellation from outside gets through.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import trio

from cdpdriver import CDPError, Session, call_function
from cdpdriver.scripts import load_script

from .axe import AxeRunError
from .findings import selector_from_target
from .fingerprints import Identity, element_identity

log = logging.getLogger(__name__)

#: The whole lookup for one page, every frame at once: this long for a page with few items...
IDENTITY_TIMEOUT = 5.0
#: ...and this much longer per item, up to :data:`IDENTITY_TIMEOUT_MAX`. Each element is
#: found by its selector and read (ancestors, landmarks, style): about a millisecond on a
#: page of 35,000 elements, so an index page with 6,000 items needs more than the 5 s a usual
#: page never comes near; cut off, all its items fall back to their markup, and the findings
#: of one component split into two problems (described and not).
IDENTITY_SECONDS_PER_ITEM = 0.002
IDENTITY_TIMEOUT_MAX = 20.0


def identity_timeout(items: int) -> float:
    """The time bound of one page's lookup of ``items`` elements."""
    return min(IDENTITY_TIMEOUT_MAX, IDENTITY_TIMEOUT + IDENTITY_SECONDS_PER_ITEM * items)


class Frames(Protocol):
    """The frames axe ran in (:class:`audit.axe.PartialRunner`)."""

    async def frame_at(self, hops: Sequence[Any]) -> FrameWorld | None: ...


class FrameWorld(Protocol):
    """A frame axe ran in: where to call, and in which world."""

    session: Session
    world: int


def _targets(axe_results: Mapping[str, Any]) -> Iterator[list[Any]]:
    """Every node target of the results that becomes an item (violations, incomplete)."""
    for key in ("violations", "incomplete"):
        for rule in axe_results.get(key) or []:
            for node in (rule.get("nodes") or []) if isinstance(rule, Mapping) else []:
                target = node.get("target") if isinstance(node, Mapping) else None
                if isinstance(target, list) and target:
                    yield target


def _by_frame(axe_results: Mapping[str, Any]) -> dict[str, tuple[list[Any], dict[str, Any]]]:
    """Frame hops (JSON) -> (the hops, {item selector: that frame's own selector of it})."""
    frames: dict[str, tuple[list[Any], dict[str, Any]]] = {}
    for target in _targets(axe_results):
        hops = target[:-1]
        frames.setdefault(json.dumps(hops), (hops, {}))[1][selector_from_target(target)] = target[-1]
    return frames


@dataclass
class Described:
    """What one page's lookup found, by item selector: each element's identity (for
    fingerprints) and its component (structure and style, for problems: the raw
    ``component`` of ``element_identity.js`` with the identity's landmarks)."""

    identities: dict[str, Identity] = field(default_factory=dict)
    components: dict[str, dict[str, Any]] = field(default_factory=dict)


async def element_identities(frames: Frames, axe_results: Mapping[str, Any]) -> dict[str, Identity]:
    """Item selector -> element identity (see :func:`audit.fingerprints.element_identity`)
    of every element the results name, as far as it can be found within the time bound."""
    return (await describe_elements(frames, axe_results)).identities


async def describe_elements(frames: Frames, axe_results: Mapping[str, Any]) -> Described:
    """Identity and component of every element the results name, as far as it can be found
    within the time bound (one call per frame gives both)."""
    found = Described()

    async def describe(hops: list[Any], selectors: dict[str, Any]) -> None:
        keys = list(selectors)
        try:
            frame = await frames.frame_at(hops)
            if frame is None:
                return
            raw = await call_function(
                frame.session, load_script("audit", "element_identity"),
                [selectors[key] for key in keys], context_id=frame.world, timeout=bound,
            )
        except (CDPError, AxeRunError) as exc:
            log.debug("element identities in frame %s unavailable: %s", hops or "top", exc)
            return
        for key, described in zip(keys, raw or [], strict=False):
            if isinstance(described, Mapping):
                found.identities[key] = element_identity(described, in_frame=bool(hops))
                if isinstance(described.get("component"), Mapping):
                    found.components[key] = {**described["component"], "landmarks": described.get("landmarks") or []}

    by_frame = _by_frame(axe_results)
    bound = identity_timeout(sum(len(selectors) for _, selectors in by_frame.values()))
    with trio.move_on_after(bound):
        async with trio.open_nursery() as nursery:
            for hops, selectors in by_frame.values():
                nursery.start_soon(describe, hops, selectors)
    return found
