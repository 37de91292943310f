"""Locate and load the vendored axe-core bundle, and read the rule metadata it declares.

An installed wheel carries the bundle inside this package (``audit/vendor/axe/``, put there
by ``setup.py`` at build time); a source checkout keeps it in ``vendor/axe/``, where
``scripts/fetch_axe.py`` fetches it. ``A11Y_AXE_PATH`` overrides both.

The score weighs each rule by its *declared* impact (see :mod:`audit.scoring`), which axe's
public API does not return. axe's build embeds its rule definitions as a data literal,
``rules:[{id:"area-alt",impact:"critical",selector:…,tags:[…],…},…]``, the table
``axe._audit.rules`` is made from; :func:`declared_impacts` reads the ``id`` and ``impact``
of each entry from the bundle's text. So the impacts depend only on the pinned bundle: no
run has to happen first and nothing is learnt at run time.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from .checks import act_rules_added, check_impacts  # registered with axe at every injection

BUNDLE_NAME = "axe.min.js"
#: Where an installed wheel or sdist keeps its bundle (setup.py copies it there at build time).
PACKAGED_BUNDLE = Path(__file__).resolve().parent / "vendor" / "axe" / BUNDLE_NAME
#: The source checkout this module runs from, if it does (an editable install, or PYTHONPATH).
CHECKOUT = Path(__file__).resolve().parent.parent.parent


def in_checkout() -> bool:
    """Whether this module runs from a source checkout, whose scripts can fetch the bundle."""
    return (CHECKOUT / "scripts" / "fetch_npm.py").is_file() and (
        CHECKOUT / "pyproject.toml"
    ).is_file()


def remedy() -> str:
    """What to do about a missing bundle: a contributor runs the checkout's script; an
    installed package has no scripts, so its user reinstalls from a proper build."""
    if in_checkout():
        return "run `bash scripts/install.sh` (or `python scripts/fetch_axe.py`) to fetch the pinned axe-core"
    return (
        "this installation lacks the axe-core bundle its wheel carries; reinstall a11y from a wheel "
        "or sdist built with `python -m build`, or set A11Y_AXE_PATH to an axe.min.js"
    )


class AxeBundleMissing(RuntimeError):
    """The axe-core bundle is neither inside the package nor in the checkout's vendor/axe/."""


@dataclass(frozen=True)
class AxeBundle:
    path: Path
    source: str
    version: str
    #: Rule id -> the impact the rule declares (rules that declare none are absent); our
    #: checks (:mod:`audit.checks`, registered with axe whenever it is injected) included.
    rule_impacts: Mapping[str, str]
    #: Rule id -> the W3C ACT rules it implements (axe's ``actIds``, and our checks').
    rule_act_ids: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


def _candidates() -> list[Path]:
    found: list[Path] = []
    if os.environ.get("A11Y_AXE_PATH"):
        found.append(Path(os.environ["A11Y_AXE_PATH"]))
    found.append(PACKAGED_BUNDLE)
    if in_checkout():
        found.append(CHECKOUT / "vendor" / "axe" / BUNDLE_NAME)
    return found


def find_bundle() -> Path:
    override = os.environ.get("A11Y_AXE_PATH")
    if override and not Path(override).is_file():
        raise AxeBundleMissing(f"A11Y_AXE_PATH {override!r} is not a file; fix it or unset it")
    for path in _candidates():
        if path.is_file():
            return path
    raise AxeBundleMissing(f"axe-core bundle ({BUNDLE_NAME}) not found; {remedy()}")


@functools.cache
def load_bundle() -> AxeBundle:
    """Read the bundle once per process; every audit injects the same text."""
    path = find_bundle()
    source = path.read_text(encoding="utf-8")
    match = re.search(r"axe v(\d+\.\d+\.\d+)", source[:500])
    # Imported here: the interactive checks' modules import the engine's floor, which needs this one.
    from .interactive import interactive_act_rules, interactive_impacts

    act_ids = declared_act_ids(source)
    for rule, added in {**act_rules_added(), **interactive_act_rules()}.items():
        act_ids[rule] = [
            *act_ids.get(rule, []),
            *(i for i in added if i not in act_ids.get(rule, [])),
        ]
    return AxeBundle(
        path=path,
        source=source,
        version=match.group(1) if match else "unknown",
        rule_impacts=MappingProxyType(
            {**declared_impacts(source), **check_impacts(), **interactive_impacts()}
        ),
        rule_act_ids=MappingProxyType({rule: tuple(ids) for rule, ids in act_ids.items()}),
    )


def rule_impacts() -> dict[str, str]:
    """axe's declared impact per rule id, from the bundle every audit injects."""
    return dict(load_bundle().rule_impacts)


def rule_act_ids(rule_id: str) -> list[str]:
    """The W3C ACT rules ``rule_id`` implements (empty for a rule that maps to none)."""
    return list(load_bundle().rule_act_ids.get(rule_id, ()))


# --------------------------------------------------------------------------- rule metadata

_RULE_TABLE = "rules:[{id:"
# A top-level string property of a rule entry, right after its "{" or a ",".
_STRING_PROPERTY = re.compile(r'([A-Za-z_$][\w$]*):"((?:[^"\\]|\\.)*)"')
# A top-level list of plain strings, such as actIds:["cf77f2","047fe0"].
_STRINGS_PROPERTY = re.compile(r'(actIds):\[((?:"[\w-]*",?)*)\]')


def declared_impacts(source: str) -> dict[str, str]:
    """``{rule id: impact}`` from the rule table in an axe-core build's source.

    The table is scanned as the data literal it is: quoted strings are skipped whole (so a
    selector's brackets or commas do not count), and only properties at the top level of
    each entry are read, since nested check options carry ``id`` keys of their own.
    Raises :class:`AxeBundleMissing` when the source holds no rule table, rather than let
    every score fall back to reported impacts unnoticed.
    """
    return {e["id"]: e["impact"] for e in _rule_entries(source) if "id" in e and "impact" in e}


def declared_act_ids(source: str) -> dict[str, list[str]]:
    """``{rule id: ACT rule ids}`` of the rules whose entry declares ``actIds``, read the same
    way as :func:`declared_impacts`."""
    return {
        e["id"]: re.findall(r'"([\w-]+)"', e["actIds"])
        for e in _rule_entries(source)
        if "id" in e and "actIds" in e
    }


def _rule_entries(source: str) -> list[dict[str, str]]:
    """The top-level ``id``, ``impact`` and (as its raw list text) ``actIds`` of every entry."""
    start = source.find(_RULE_TABLE)
    if start < 0:
        raise AxeBundleMissing(f"the axe-core bundle has no rule table (rules:[…]); {remedy()}")
    entries: list[dict[str, str]] = []
    entry: dict[str, str] = {}
    depth = 0
    i = start + len("rules:")
    while i < len(source):
        ch = source[i]
        if ch in "\"'":
            i = _string_end(source, i)
            continue
        if ch in "[{(":
            depth += 1
        elif ch in "]})":
            depth -= 1
            if depth == 1 and ch == "}":  # an entry ends
                entries.append(entry)
                entry = {}
            elif depth == 0:
                break
        if depth == 2 and ch in "{,":
            found = _STRING_PROPERTY.match(source, i + 1) or _STRINGS_PROPERTY.match(source, i + 1)
            if found is not None and found.group(1) in ("id", "impact", "actIds"):
                entry[found.group(1)] = found.group(2)
        i += 1
    return entries


def _string_end(source: str, start: int) -> int:
    """Index just past the string literal that opens at ``start``."""
    quote = source[start]
    i = start + 1
    while source[i] != quote:
        i += 2 if source[i] == "\\" else 1
    return i + 1
