"""A component's signature and the problem id made from it; pure.

Two findings are one problem when they are findings of the same rule on the same component.
What makes a component is its structure, read by ``js/element_identity.js`` while the page
is open: the roles of the landmarks it sits in (not their names, which are often content:
``aria-label="Offer 3"``), the tags, classes and roles of its nearest ancestors up to the
second one that names a component (a class or a role: the component and what holds it;
what holds that is where the page placed it, which is content), its own tag, classes, role,
input type and the names (not values) of its ARIA attributes. A class that is another class
of the component plus ``-``/``_`` and a suffix (``btn--primary`` beside ``btn``,
``highlight-python3`` around ``highlight``) names a variant, not another component, and
stands as its base (:func:`modifier_base`). For the rules that judge how
a thing looks or is laid out (contrast, target size, links told apart by colour, a box that
does not reflow at 320 px) the fix is one style rather than one template position, so the
signature there is the element's own tag, classes and role and the computed style values the
fix changes (a text colour, not the background it happens to sit on).

A needs-review item of such a rule is a question, not a style: the rule could not decide
(a background hidden by another element, text too short to judge), and one look at the
cause answers every item it holds back. Its signature is the rule, the landmarks and the
reason, with what differs between items (numbers, quoted text) left out.

Never part of it: text, ``href``/``src``, ids, the page URL, positions among siblings,
classes that read as generated (``css-1q2w3e``) or as a state (``active``, ``is-open``),
and values of state attributes (``aria-current``, ``aria-expanded``...), so a header link
keeps its problem on every page, whatever its text, its target or whether it is current.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Container, Mapping, Sequence
from typing import Any

from ..generated_names import looks_generated

ALGORITHM = "a11y-problem/4"
PROBLEM_ID_LENGTH = 16
#: Nearest ancestors kept in a structural signature (after repeats are folded)...
PATH_DEPTH = 6
#: ...and of those, up to this many that name a component (a class or a role).
NAMED_ANCESTORS = 2

Signature = dict[str, Any]

_CONTRAST = ("color",)
_SIZE = ("display", "padding")
_LINK_LOOK = ("color", "parentColor", "textDecoration")
#: What lets a box that sticks out at 320 px wrap or not: its display and white-space (its
#: width comes from its content or its page, so it is no part of the style).
_REFLOW = ("display", "whiteSpace")
#: Visual rules: the style values their verdict reads, the property a fix changes, and
#: whether the landmark belongs to the component (a target size is set per region of a
#: page; a text colour is one style wherever it is used).
VISUAL_RULES: dict[str, tuple[tuple[str, ...], str, bool]] = {
    "color-contrast": (_CONTRAST, "colour", False),
    "color-contrast-enhanced": (_CONTRAST, "colour", False),
    "a11y-symbol-text-contrast": (_CONTRAST, "colour", False),
    "link-in-text-block": (_LINK_LOOK, "link styling", False),
    "a11y-inline-text-color": (_LINK_LOOK, "colour", False),
    "target-size": (_SIZE, "size and spacing", True),
    "a11y-tiny-text": (("fontSize",), "font size", False),
    "a11y-reflow": (_REFLOW, "wrapping and width", True),
}

# A class naming a state rather than a component: it comes and goes on the same element.
_STATE_CLASS = re.compile(
    r"^(is|has)-|(^|[-_])(active|current|selected|open|opened|closed|expanded|collapsed|show|shown|"
    r"hidden|visible|visited|focus|focused|hover|disabled|checked|pressed)([-_]|$)",
    re.IGNORECASE,
)
# ARIA attributes whose presence changes with state on the same component.
_STATE_ARIA = frozenset(
    {
        "aria-current",
        "aria-expanded",
        "aria-selected",
        "aria-checked",
        "aria-pressed",
        "aria-hidden",
        "aria-disabled",
        "aria-busy",
        "aria-invalid",
        "aria-activedescendant",
        "aria-valuenow",
        "aria-valuetext",
        "aria-setsize",
        "aria-posinset",
        "aria-level",
    }
)


@functools.lru_cache(maxsize=4096)
def _names_component(name: str) -> bool:
    """Whether a class names a component (a page repeats the same few classes thousands of
    times, so the answer is remembered)."""
    return bool(name) and not looks_generated(name) and not _STATE_CLASS.search(name)


_SEPARATORS = "-_"


def modifier_base(name: str, bases: Container[str]) -> str:
    """The longest class of ``bases`` that ``name`` modifies, with the separator after it
    (``highlight-`` for ``highlight-python3`` beside ``highlight``, ``btn--`` for
    ``btn--primary``), or "". A modifier is a base class, a separator (``-`` or ``_``, one
    or more) and a suffix: the naming of a variant of one component (a language, a colour
    scheme, a size), so it says which variant, not which component. Only the prefixes of
    ``name`` that end at a separator are looked up, so a long ``bases`` costs nothing."""
    for base, written in _prefixes(name):
        if base in bases:
            return written
    return ""


@functools.lru_cache(maxsize=4096)
def _prefixes(name: str) -> tuple[tuple[str, str], ...]:
    """(base, base and separator) of each way to read ``name`` as a modifier, longest base
    first."""
    found = []
    for end in range(len(name) - 1, 0, -1):
        if name[end] in _SEPARATORS and name[end - 1] not in _SEPARATORS:
            suffix = name[end:].lstrip(_SEPARATORS)
            if suffix:
                found.append((name[:end], name[: len(name) - len(suffix)]))
    return tuple(found)


def component_classes(classes: Sequence[Any]) -> list[str]:
    """The classes that name a component: sorted, without generated or state classes, and
    without a modifier of another of them (``btn--primary`` beside ``btn``)."""
    return list(_component_classes(tuple(str(c) for c in classes if c)))


@functools.lru_cache(maxsize=4096)
def _component_classes(classes: tuple[str, ...]) -> tuple[str, ...]:
    names = {name for name in classes if _names_component(name)}
    return tuple(sorted(name for name in names if not modifier_base(name, names - {name})))


def _step(raw: Mapping[str, Any], inner: Container[str]) -> str:
    """One ancestor as a compound selector: ``tag.class[role=x]``; a class of it that
    modifies a class of an element nearer the component (``inner``) as the base it varies
    (``div[class*="highlight-"]`` for ``div.highlight-python3`` around ``div.highlight``)."""
    tag, role = str(raw.get("tag") or ""), str(raw.get("role") or "")
    classes = _component_classes(tuple(str(c) for c in raw.get("classes") or () if c))
    variants = [modifier_base(name, inner) for name in classes]
    if not any(variants):
        return _compound(tag, classes, (), role)
    kept = tuple(name for name, base in zip(classes, variants, strict=True) if not base)
    return _compound(tag, kept, tuple(sorted({base for base in variants if base})), role)


@functools.lru_cache(maxsize=4096)
def _compound(tag: str, classes: tuple[str, ...], bases: tuple[str, ...], role: str) -> str:
    role = role.split(" ")[0]
    own = "".join(f".{c}" for c in classes) + "".join(f'[class*="{_quoted(b)}"]' for b in bases)
    return tag + own + (f"[role={role}]" if role else "")


def _quoted(text: str) -> str:
    """``text`` inside a double-quoted CSS string."""
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _names_a_component(compound: str) -> bool:
    return "." in compound or "[role=" in compound or "[class*=" in compound


def _fold(entries: list[list[Any]]) -> None:
    """Fold the repeat that the last entry may have completed: a step equal to the one
    before it (``section section``), or a pair equal to the pair before it (``ul > li`` in
    a nested list). The entry kept is marked folded: more of it may sit between it and the
    next one out."""
    if len(entries) >= 2 and entries[-1][0] == entries[-2][0]:
        entries.pop()
        entries[-1][1] = True
    elif len(entries) >= 4 and [e[0] for e in entries[-2:]] == [e[0] for e in entries[-4:-2]]:
        del entries[-2:]
        entries[-1][1] = True


def folded_path(
    steps: Sequence[Mapping[str, Any]],
    depth: int = PATH_DEPTH,
    named: int = NAMED_ANCESTORS,
    own: Sequence[Any] = (),
) -> list[str]:
    """The nearest ancestors, outermost first, each a compound selector followed by `` >``
    when it is the parent of the next one: at most ``depth`` of them, ending at the
    ``named``-th one that names a component. Repeats of one step or of a pair of steps fold
    into one (nesting depth is content), joined to what is around them as ancestors: the
    steps, joined by spaces and ending with the element's own compound, are a CSS selector
    that matches the element. A class that modifies a class of the element (``own``) or of a
    nearer ancestor stands as its base (:func:`_step`): the wrapper of a code block in one
    language or another is the same wrapper."""
    entries: list[list[Any]] = []  # nearest first: [compound, folded]
    inner = set(component_classes(own))
    for raw in steps:
        entries.append([_step(raw, inner), False])
        inner.update(_component_classes(tuple(str(c) for c in raw.get("classes") or () if c)))
        _fold(entries)
    kept: list[list[Any]] = []
    for entry in entries:
        if len(kept) == depth:
            break
        kept.append(entry)
        named -= _names_a_component(entry[0])
        if named == 0:
            break
    out = []
    for index, (step, _) in enumerate(kept):
        inner_folded = index > 0 and kept[index - 1][1]
        out.append(step if inner_folded else f"{step} >")
    return list(reversed(out))


def own_compound(component: Mapping[str, Any]) -> str:
    """The element itself as a compound selector (tag and component classes)."""
    tag = str(component.get("tag") or "")
    return tag + "".join(f".{c}" for c in component_classes(component.get("classes") or []))


def _ancestors(path: Sequence[str]) -> list[str]:
    """A folded path's compounds without the `` >`` of a parent: whether a step is the
    parent of the next depends on how deep the content nests it (one list level or three),
    so the id must not, and joined by spaces the compounds still select the element."""
    return [step.removesuffix(" >") for step in path]


_DIFFERS = re.compile(r'"[^"]*"|\u201c[^\u201d]*\u201d|\d+(?:[.,]\d+)*')


def review_signature(rule_id: str, reason: str) -> Signature | None:
    """The signature of a needs-review item of a visual rule (see the module docstring):
    the reason, wherever on the site; None for other rules, whose undecided items group
    by component like their findings."""
    if rule_id not in VISUAL_RULES:
        return None
    return {"undecided": " ".join(_DIFFERS.sub("\u2026", reason or "").split())}


def component_signature(rule_id: str, component: Mapping[str, Any]) -> Signature:
    """The signature of a described component (``element_identity.js``'s ``component``
    with the identity's ``landmarks``) for ``rule_id``."""
    signature: Signature = {
        "tag": str(component.get("tag") or ""),
        "classes": component_classes(component.get("classes") or []),
        "role": str(component.get("computedRole") or component.get("role") or ""),
        "explicitRole": str(component.get("role") or "").split(" ")[0],
        "type": str(component.get("type") or "").lower(),
        "aria": sorted({str(a) for a in component.get("aria") or []} - _STATE_ARIA),
    }
    landmarks = [str(role) for role, *_ in component.get("landmarks") or []]
    visual = VISUAL_RULES.get(rule_id)
    if visual is None:
        signature["landmarks"] = landmarks
        signature["path"] = _ancestors(
            folded_path(component.get("path") or [], own=component.get("classes") or [])
        )
    else:
        keys, _, with_landmarks = visual
        style = component.get("style") or {}
        signature["style"] = {key: str(style.get(key) or "") for key in keys}
        if with_landmarks:
            signature["landmarks"] = landmarks
    return {key: value for key, value in signature.items() if value}


_TAG_RE = re.compile(r"\s*<([A-Za-z][A-Za-z0-9:_.-]*)")
_ATTR_RE = re.compile(r"""([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?""")
_IGNORED_PSEUDO = re.compile(
    r":(nth-child|nth-of-type|nth-last-child|nth-last-of-type)\([^)]*\)|"
    r":(first|last|only)-(child|of-type)"
)
_ATTR_SELECTOR = re.compile(r"\[[^\]]*\]")
_ID_SELECTOR = re.compile(r"#(?:\\.|[\w-])+")
_COMBINATOR = re.compile(r"\s*([>+~])\s*|\s+")


def opening_tag_attributes(html: str) -> dict[str, str]:
    """The attributes of an opening tag, names lower-case; {} when it is no tag."""
    m = _TAG_RE.match(html or "")
    if not m:
        return {}
    rest = html[m.end() :].split(">", 1)[0]
    return {
        name.lower(): next((v for v in values if v is not None), "")
        for name, *values in _ATTR_RE.findall(rest)
    }


def generalized_compound(compound: str) -> str:
    """A compound selector without what names one element: ids, attribute values and
    positions (``li:nth-child(3)`` is ``li``, ``a#top[href="/"]`` is ``a``)."""
    out = _IGNORED_PSEUDO.sub("", compound)
    out = _ATTR_SELECTOR.sub("", out)
    out = _ID_SELECTOR.sub("", out)
    classes = component_classes(re.findall(r"\.((?:\\.|[\w-])+)", out))
    tag = re.match(r"[A-Za-z][\w-]*|\*", out)
    return (tag.group(0) if tag else "") + "".join(f".{c}" for c in classes)


def selector_steps(selector: str) -> list[tuple[str, str]]:
    """(combinator before it, generalized compound) of each compound of one selector hop;
    the first combinator is ``""``."""
    tokens = _COMBINATOR.split(_ATTR_SELECTOR.sub("", selector).strip())
    steps: list[tuple[str, str]] = []
    combinator = ""
    for index, token in enumerate(tokens):
        if index % 2 == 1:  # a combinator capture: '>' '+' '~' or None for a space
            combinator = (token or " ") if steps else ""
            continue
        if token:
            steps.append((combinator, generalized_compound(token)))
    return steps


def _selector_ancestry(steps: Sequence[tuple[str, str]]) -> list[str]:
    """The ancestors a selector names before its last compound, as :func:`folded_path`
    writes them. A sibling combinator (``+``, ``~``) ends the chain of ancestors; a compound
    generalized to nothing (an id) is left out, and its neighbours join as ancestors."""
    ancestry: list[str] = []
    gap = False  # a compound was left out between this one and the nearest kept inner one
    named = NAMED_ANCESTORS
    for index in range(len(steps) - 2, -1, -1):
        join, compound = steps[index + 1][0], steps[index][1]
        if join not in (">", " ") or len(ancestry) == PATH_DEPTH or named == 0:
            break
        if not compound:
            gap = True
            continue
        ancestry.insert(0, f"{compound} >" if join == ">" and not gap else compound)
        named -= _names_a_component(compound)
        gap = False
    return ancestry


def fallback_signature(rule_id: str, element: str, html: str, selector: str) -> Signature:
    """The signature of an element that could not be described (not found when the page
    was open, or reported after it closed): its tag, classes, role, input type and ARIA
    attribute names from its opening tag, and its ancestry from the selector's last hop."""
    attrs = opening_tag_attributes(html)
    hops = selector.split(" >>> ")
    ancestry = _selector_ancestry(selector_steps(hops[-1]))
    signature: Signature = {
        "tag": element,
        "classes": component_classes(attrs.get("class", "").split()),
        "role": attrs.get("role", "").split(" ")[0],
        "explicitRole": attrs.get("role", "").split(" ")[0],
        "type": attrs.get("type", "").lower() if element in ("input", "button") else "",
        "aria": sorted({name for name in attrs if name.startswith("aria-")} - _STATE_ARIA),
        "selectorPath": _ancestors(ancestry),
        "frames": len(hops) - 1,
    }
    if rule_id in VISUAL_RULES:
        signature.pop("selectorPath")
    return {key: value for key, value in signature.items() if value}


def problem_id(rule_id: str, signature: Signature) -> str:
    """The problem id: 16 hex digits of a SHA-256 over (algorithm, rule, signature)."""
    material = json.dumps(
        [ALGORITHM, rule_id, signature], sort_keys=True, ensure_ascii=False, separators=(",", ":")
    )
    return hashlib.sha256(material.encode("utf-8")).hexdigest()[:PROBLEM_ID_LENGTH]


_LANDMARK_WORDS = {
    "banner": "header",
    "contentinfo": "footer",
    "navigation": "navigation",
    "complementary": "sidebar",
    "main": "main content",
    "search": "search",
    "form": "form",
    "region": "region",
}


def landmark_words(landmarks: Sequence[Any]) -> str:
    """The landmarks around a component in words, outermost first: ``header › navigation
    "Primary"``; empty outside every landmark."""
    words = []
    for entry in landmarks:
        role, name = (
            (str(entry[0]), str(entry[1]) if len(entry) > 1 else "")
            if isinstance(entry, Sequence) and not isinstance(entry, str)
            else (str(entry), "")
        )
        word = _LANDMARK_WORDS.get(role, role)
        words.append(f'{word} "{name}"' if name else word)
    return WHERE_SEPARATOR.join(words)


#: Between the landmarks and the component in :func:`readable_component`'s text.
WHERE_SEPARATOR = " › "
#: Between the element and the style values of a visual rule's component.
STYLE_SEPARATOR = ": "
#: How the component of a visual rule's undecided items reads: no element, the question.
UNDECIDED = "undecided: "


def split_component(text: str) -> tuple[str, str]:
    """(landmarks in words, the rest) of a :func:`readable_component` text."""
    where, _, rest = text.rpartition(WHERE_SEPARATOR)
    return where, rest


def readable_component(rule_id: str, signature: Signature) -> str:
    """The component as a person reads it: the landmarks in words, then a CSS selector
    matching the element (its structure, or for visual rules the element alone followed by
    the style values the rule reads). At most 200 characters."""
    if "undecided" in signature:
        return f"{UNDECIDED}{signature['undecided']}"[:200]
    own = signature.get("tag", "") + "".join(f".{c}" for c in signature.get("classes", []))
    if signature.get("explicitRole"):
        own += f"[role={signature['explicitRole']}]"
    where = landmark_words(signature.get("landmarks", []))
    style = signature.get("style")
    if style:
        values = ", ".join(f"{key} {value}" for key, value in style.items() if value)
        text = f"{own}{STYLE_SEPARATOR}{values}" if values else own
    else:
        path = signature.get("path") or signature.get("selectorPath") or []
        text = " ".join([*path, own or "*"])
    text = f"{where}{WHERE_SEPARATOR}{text}" if where else text
    return text if len(text) <= 200 else text[:199] + "\u2026"


def component_css(text: str) -> str:
    """The CSS selector part of a :func:`readable_component` text ("" when it was cut, or
    when the text is a question rather than a component)."""
    if text.startswith(UNDECIDED):
        return ""
    css = split_component(text)[1].split(STYLE_SEPARATOR, 1)[0]
    return "" if css.endswith("\u2026") else css
