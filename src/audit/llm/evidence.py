"""What the model gets to see, gathered while the audited page is still open.

For every finding and needs-review item in the five reviewed areas (text alternatives,
contrast, keyboard, labels, link purpose) :func:`collect_evidence` records the element's
markup, its accessible name and role (from Chromium's accessibility tree, i.e. what a
screen reader gets), nearby text, computed colours and, for images and contrast, a small
PNG crop of the element (``Page.captureScreenshot`` with a clip, scaled down and capped in
bytes). It also looks for things axe-core *passes* but a person would not: images whose alt
text is a file name or a generic word, and links whose text is "click here"-like; those
become candidates the model confirms or rejects. The needs-review items of the judgment checks
(``a11y-judge-…``, questions no rule can answer) get the context their question needs instead:
the page's headings and text for its title, the text a heading introduces, a link's sentence,
list item, table headers and the heading before it, a field's role and type for its label, an
image's source and picture.

Everything is bounded (items per page, characters per field, bytes per image, one overall
timeout) and best effort: an element that cannot be resolved (an out-of-process iframe hop,
a node removed since axe ran) keeps what axe reported, and an error never escapes, because
evidence is an extra and the audit must not fail over it.
"""

from __future__ import annotations

import base64
import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice, zip_longest
from pathlib import PurePosixPath
from typing import Any, Literal
from urllib.parse import unquote, urlsplit

import trio

from cdpdriver import CDPError, JavaScriptError, Page, call_function, evaluate_remote, remote_value
from cdpdriver.protocol import accessibility, runtime
from cdpdriver.protocol import page as page_domain
from cdpdriver.scripts import call_expression, load_script

from ..checks import CHECKS
from ..models import Finding, NeedsReviewItem
from ..urls import without_credentials

log = logging.getLogger(__name__)

Area = Literal["text-alternatives", "contrast", "keyboard", "labels", "link-purpose"]
Kind = Literal["finding", "review", "candidate", "judgment"]

#: Success criteria of each reviewed area; ``2.1.`` stands for every 2.1.x criterion.
AREAS: dict[str, tuple[str, ...]] = {
    "text-alternatives": ("1.1.1",),
    "contrast": ("1.4.3", "1.4.6", "1.4.11"),
    "keyboard": ("2.1.", "2.4.3", "2.4.7"),
    "labels": ("1.3.1", "3.3.2", "4.1.2"),
    "link-purpose": ("2.4.4", "2.4.9"),
}
#: Areas where a picture says more than the markup.
IMAGE_AREAS = frozenset({"text-alternatives", "contrast"})

MAX_ITEMS_PER_PAGE = 40
#: Questions of the judgment checks per page, taken in turn from each check.
MAX_JUDGMENT_PER_PAGE = 30
JUDGMENT_AREA = "judgment"
#: What context each judgment check's question needs (``js/judgment_context.js``); the image
#: ones also get the picture.
JUDGMENT_CONTEXT: dict[str, str] = {c.rule_id: c.judgment_context for c in CHECKS if c.judgment_context}
CONTEXT_CHARS = 400
MAX_CANDIDATES_PER_PAGE = 15
MAX_SCREENSHOTS_PER_PAGE = 12
MARKUP_CHARS = 1200
TEXT_CHARS = 300
#: Images are scaled to fit this longest side (the models downscale beyond it anyway); text
#: crops for contrast are cut to SHOT_MAX_WIDTH x SHOT_MAX_HEIGHT instead, never scaled, so
#: glyphs keep their real size and anti-aliasing.
SHOT_MAX_SIDE = 512
SHOT_MAX_WIDTH = 800
SHOT_MAX_HEIGHT = 400
SHOT_PADDING = 8
SHOT_MAX_BYTES = 150_000
EVIDENCE_TIMEOUT = 20.0
WORLD = "a11y-llm"
OBJECT_GROUP = "a11y-llm-evidence"

# Candidate rules (no axe rule covers them; ids are this project's own).
ALT_RULE = "llm-alt-text-meaningful"
LINK_RULE = "llm-link-purpose"


def area_of(success_criteria: Sequence[str]) -> str | None:
    """The reviewed area a rule belongs to, or None when the LLM does not review it."""
    for area, prefixes in AREAS.items():
        for sc in success_criteria:
            if any(sc == p or (p.endswith(".") and sc.startswith(p)) for p in prefixes):
                return area
    return None


ItemKey = tuple[str, str, str, str]
"""(kind, page_url, rule_id, selector): stable across the engine's renumbering of ids."""


def item_key(kind: str, item: Finding | NeedsReviewItem) -> ItemKey:
    return (kind, item.page_url, item.rule_id, item.selector)


@dataclass(frozen=True)
class Screenshot:
    media_type: str
    data: bytes = field(repr=False)
    width: int = 0
    height: int = 0


@dataclass
class ElementEvidence:
    """One question's worth of context about one element."""

    key: ItemKey
    kind: Kind
    area: str
    rule_id: str
    rule: str
    problem: str
    success_criteria: list[str]
    selector: str
    page_url: str
    markup: str
    element: str = ""
    found: bool = False
    name: str | None = None
    role: str | None = None
    text: str = ""
    nearby_text: str = ""
    style: dict[str, str] = field(default_factory=dict)
    screenshot: Screenshot | None = None
    #: Candidates only: the suspicious alt text / link text that was checked.
    checked_text: str = ""
    #: Judgment items only: the ACT rules whose question ``problem`` is, and labelled context.
    act_rules: list[str] = field(default_factory=list)
    context: dict[str, str] = field(default_factory=dict)


@dataclass
class Evidence:
    """Everything collected on one page."""

    page_url: str
    items: list[ElementEvidence] = field(default_factory=list)
    #: How many images with non-empty alt / links the page has (for the llm rules' score).
    images_with_alt: int = 0
    links: int = 0
    candidates_scanned: bool = False
    errors: list[str] = field(default_factory=list)
    #: axe's rule results without nodes (id, impact, tags per outcome): enough to re-score
    #: the page with the LLM rules after the engine has dropped the raw results.
    score_basis: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


def score_basis(axe_results: Mapping[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The part of axe's results that :func:`audit.scoring.page_score` reads."""
    return {
        key: [
            {"id": r.get("id"), "impact": r.get("impact"), "tags": list(r.get("tags") or [])}
            for r in axe_results.get(key) or [] if isinstance(r, Mapping)
        ]
        for key in ("violations", "incomplete", "passes")
    }


# --------------------------------------------------------------------------- heuristics

_IMAGE_EXT = r"(?:jpe?g|png|gif|webp|svg|bmp|tiff?|avif|heic)"
_FILE_NAME_RE = re.compile(rf"^[\w\-. %()]+\.{_IMAGE_EXT}$", re.IGNORECASE)
_CAMERA_RE = re.compile(r"^(?:img|dsc|dscn|dscf|pict|pxl|photo|image|screenshot|scan)[\s_-]*\d+", re.IGNORECASE)
_GENERIC_ALT = frozenset({
    "image", "img", "photo", "photograph", "picture", "pic", "graphic", "icon", "banner",
    "spacer", "placeholder", "alt", "alt text", "untitled", "thumbnail", "logo", "figure",
    "image description", "blank", "null", "none", "undefined", "photo image", "jpg", "png",
})
_GENERIC_LINK = frozenset({
    "click here", "click", "here", "read more", "more", "learn more", "more info",
    "more information", "details", "link", "this link", "this", "go", "continue", "info",
    "see more", "view more", "find out more", "click this", "this page", "page", "more details",
    "read", "view", "see", "go here", "tap here", "press here", "start here",
})


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text or "").strip()


def _words(text: str) -> str:
    """Lower-case words only, so "Click here!" and "click  here" compare equal."""
    return " ".join(re.sub(r"[^\w\s]", " ", _norm(text).lower()).split())


def suspicious_alt(alt: str, src: str = "", adjacent: str = "") -> str | None:
    """Why a non-empty alt text is probably meaningless, or None.

    File names (``IMG_0412.jpg``), camera numbering, generic words ("image", "photo"), the
    image's own file name, a lone character, or text that repeats the adjacent text verbatim.
    """
    text = _norm(alt)
    if not text:
        return None
    file = PurePosixPath(unquote(urlsplit(src).path)).name if src else ""
    if _FILE_NAME_RE.match(text):
        return f'the alt text "{text}" is a file name'
    if _CAMERA_RE.match(text):
        return f'the alt text "{text}" looks like a camera or file number'
    if _words(text) in _GENERIC_ALT:
        return f'the alt text "{text}" is a generic word'
    if file and _words(text) == _words(PurePosixPath(file).stem):
        return f'the alt text "{text}" repeats the image file name'
    if len(text) == 1 or not re.search(r"[^\W\d_]", text):
        return f'the alt text "{text}" has no words'
    if adjacent and _words(text) == _words(adjacent):
        return f'the alt text "{text}" repeats the adjacent text'
    return None


def generic_link_text(text: str) -> bool:
    """True for link text that says nothing out of context ("click here", "read more")."""
    words = _words(text)
    return bool(words) and words in _GENERIC_LINK


# --------------------------------------------------------------------------- page side


class _PageReader:
    """CDP plumbing for one page: an isolated world (page scripts cannot interfere) holding
    the page-side helpers (``js/evidence_page_helpers.js``), element handles, the
    accessibility tree and clipped screenshots."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.session = page.session
        self.world = 0

    async def start(self) -> None:
        """The world, with ``__a11yLlm`` and, as its ``context``, the judgment questions'
        context reader (``js/judgment_context.js``), in one evaluation."""
        self.world = await self.page.isolated_world(name=WORLD)
        context = load_script(__package__, "judgment_context")
        await self._eval(f"{load_script('audit', 'evidence_page_helpers')};__a11yLlm.context = {context};true")

    async def _eval(self, expression: str, by_value: bool = True) -> Any:
        remote = await evaluate_remote(
            self.session, expression, self.world, by_value=by_value, object_group=OBJECT_GROUP,
            timeout=10,
        )
        return remote_value(remote) if by_value else remote

    async def element(self, selector: str) -> str | None:
        remote = await self._eval(call_expression("__a11yLlm.resolve", selector), by_value=False)
        return str(remote.object_id) if getattr(remote, "object_id", None) else None

    async def describe(self, object_id: str, scroll: bool, tight: bool, context: str | None = None) -> dict[str, Any]:
        """What the page shows of the element; with ``context`` (a judgment question's kind,
        see JUDGMENT_CONTEXT) also that context, labelled, under ``"context"``."""
        value = await call_function(
            self.session,
            "function (o, kind, limit) { const d = __a11yLlm.describe(this, o);"
            " if (kind) d.context = __a11yLlm.context.call(this, kind, limit); return d; }",
            {"scroll": scroll, "tight": tight, "markup": MARKUP_CHARS, "text": TEXT_CHARS},
            context,
            CONTEXT_CHARS,
            object_id=object_id,
            timeout=10,
        )
        return value if isinstance(value, dict) else {}

    async def ax_name(self, object_id: str) -> tuple[str | None, str | None]:
        """(accessible name, role) as Chromium computes them for assistive technology."""
        nodes = await self.session.execute(
            accessibility.get_partial_ax_tree(
                object_id=runtime.RemoteObjectId(object_id), fetch_relatives=False
            ),
            timeout=10,
        )
        for node in nodes or []:
            name = node.name.value if node.name is not None else None
            role = node.role.value if node.role is not None else None
            return (str(name) if name is not None else None, str(role) if role is not None else None)
        return None, None

    async def screenshot(self, rect: Mapping[str, float], fit: bool) -> Screenshot | None:
        """A PNG (JPEG when the PNG is over the byte cap) of ``rect`` plus padding: scaled
        down to fit when ``fit`` (images), else cropped from the top left (text)."""
        x = max(0.0, float(rect["x"]) - SHOT_PADDING)
        y = max(0.0, float(rect["y"]) - SHOT_PADDING)
        width = float(rect["width"]) + 2 * SHOT_PADDING
        height = float(rect["height"]) + 2 * SHOT_PADDING
        scale = 1.0
        if fit:
            scale = min(1.0, SHOT_MAX_SIDE / max(width, height))
        else:
            width, height = min(width, SHOT_MAX_WIDTH), min(height, SHOT_MAX_HEIGHT)
        for fmt, quality in (("png", None), ("jpeg", 70)):
            data = await self.session.execute(
                page_domain.capture_screenshot(
                    format=fmt,  # type: ignore[arg-type]
                    quality=quality,
                    clip=page_domain.Viewport(x=x, y=y, width=width, height=height, scale=scale),
                ),
                timeout=15,
            )
            raw = base64.b64decode(data)
            if len(raw) <= SHOT_MAX_BYTES:
                return Screenshot(f"image/{fmt}", raw, round(width * scale), round(height * scale))
        return None

    async def candidates(self, exclude: list[str], limit: int) -> dict[str, Any]:
        value = await self._eval(call_expression("__a11yLlm.candidates", exclude, int(limit)))
        return value if isinstance(value, dict) else {}

    async def release(self) -> None:
        try:
            await self.session.execute(runtime.release_object_group(OBJECT_GROUP), timeout=5)
        except CDPError:
            pass


async def _fill(reader: _PageReader, item: ElementEvidence, want_shot: bool) -> None:
    """Resolve the element and add what the page knows about it; unresolvable elements keep
    axe's markup (``found`` stays False)."""
    object_id = await reader.element(item.selector)
    if object_id is None:
        return
    text_crop = item.area == "contrast"
    judged = item.kind == "judgment"
    info = await reader.describe(
        object_id, scroll=want_shot, tight=text_crop, context=JUDGMENT_CONTEXT[item.rule_id] if judged else None
    )
    context = info.get("context")
    if judged and isinstance(context, dict):
        item.context = {str(k): str(v) for k, v in context.items()}
    item.found = True
    item.element = str(info.get("tag") or item.element)
    item.markup = str(info.get("markup") or item.markup)
    item.text = str(info.get("text") or "")
    item.nearby_text = str(info.get("nearby") or "")
    style = info.get("style")
    if isinstance(style, dict):
        item.style = {str(k): str(v) for k, v in style.items()}
    try:
        item.name, item.role = await reader.ax_name(object_id)
    except CDPError as exc:
        log.debug("no accessibility node for %s: %s", item.selector, exc)
    rect = info.get("rect")
    if want_shot and isinstance(rect, dict):
        item.screenshot = await reader.screenshot(rect, fit=not text_crop)


def _from_item(kind: Kind, area: str, item: Finding | NeedsReviewItem) -> ElementEvidence:
    problem = item.reason if isinstance(item, NeedsReviewItem) else (item.failure_summary or "")
    return ElementEvidence(
        key=item_key("review" if kind == "judgment" else kind, item),
        kind=kind,
        area=area,
        rule_id=item.rule_id,
        rule=item.help_text or item.description,
        problem=problem,
        success_criteria=list(item.success_criteria),
        selector=item.selector,
        page_url=item.page_url,
        markup=item.html,
        element=item.element,
        act_rules=list(item.act_rules) if kind == "judgment" else [],
    )


def _judgment_items(needs_review: Sequence[NeedsReviewItem]) -> list[ElementEvidence]:
    """The judgment checks' questions, at most :data:`MAX_JUDGMENT_PER_PAGE`, one of each
    check in turn, so a page of 200 links still gets its title and headings asked about."""
    by_rule: dict[str, list[NeedsReviewItem]] = {}
    for item in needs_review:
        if item.rule_id in JUDGMENT_CONTEXT:
            by_rule.setdefault(item.rule_id, []).append(item)
    in_turn = (item for turn in zip_longest(*by_rule.values()) for item in turn if item is not None)
    return [_from_item("judgment", JUDGMENT_AREA, item) for item in islice(in_turn, MAX_JUDGMENT_PER_PAGE)]


def _wants_picture(item: ElementEvidence) -> bool:
    if item.kind == "judgment":
        return JUDGMENT_CONTEXT.get(item.rule_id) == "image"
    return item.area in IMAGE_AREAS and item.rule_id != LINK_RULE


def _candidate_items(page_url: str, found: Mapping[str, Any], limit: int) -> list[ElementEvidence]:
    out: list[ElementEvidence] = []
    for image in found.get("images") or []:
        reason = suspicious_alt(str(image.get("alt", "")), str(image.get("src", "")), str(image.get("adjacent", "")))
        if reason:
            out.append(ElementEvidence(
                key=("candidate", page_url, ALT_RULE, str(image["selector"])),
                kind="candidate", area="text-alternatives", rule_id=ALT_RULE,
                rule="Alternative text must convey the purpose or content of the image",
                problem=f"axe-core passed this image because it has alt text, but {reason}.",
                success_criteria=["1.1.1"], selector=str(image["selector"]), page_url=page_url,
                markup="", element="img", checked_text=str(image.get("alt", "")),
            ))
    for link in found.get("links") or []:
        text = str(link.get("text", ""))
        if generic_link_text(text):
            out.append(ElementEvidence(
                key=("candidate", page_url, LINK_RULE, str(link["selector"])),
                kind="candidate", area="link-purpose", rule_id=LINK_RULE,
                rule="The purpose of each link must be clear from its text or its context",
                problem=f'axe-core passed this link because it has text, but "{text}" is generic.',
                success_criteria=["2.4.4"], selector=str(link["selector"]), page_url=page_url,
                markup="", element="a", checked_text=text,
            ))
    return out[:limit]


def _still_suspicious(item: ElementEvidence) -> bool:
    """A link candidate whose real accessible name (aria-label etc.) is specific is dropped."""
    if item.kind != "candidate" or item.rule_id != LINK_RULE or not item.name:
        return True
    return generic_link_text(item.name)


async def collect_evidence(
    page: Page,
    findings: Sequence[Finding],
    needs_review: Sequence[NeedsReviewItem],
    *,
    screenshots: bool = True,
    candidates: bool = True,
    timeout: float = EVIDENCE_TIMEOUT,
    page_url: str | None = None,
) -> Evidence:
    """Evidence for one open page; never raises (except cancellation from outside).

    Items beyond :data:`MAX_ITEMS_PER_PAGE` and candidates beyond
    :data:`MAX_CANDIDATES_PER_PAGE` are left out (findings first, then needs-review items);
    what was gathered when ``timeout`` runs out is returned with an error noted.
    ``page_url`` is the URL the findings are reported under (the requested one, not the final
    URL after redirects); by default the findings' own, else the page's current URL.
    """
    page_url = page_url or next((i.page_url for i in [*findings, *needs_review]), "")
    evidence = Evidence(page_url=page_url)
    for kind, items in (("finding", findings), ("review", needs_review)):
        for item in items:
            if item.rule_id in JUDGMENT_CONTEXT:
                continue
            area = area_of(item.success_criteria)
            if area is not None and len(evidence.items) < MAX_ITEMS_PER_PAGE:
                evidence.items.append(_from_item(kind, area, item))  # type: ignore[arg-type]
    evidence.items.extend(_judgment_items(needs_review))
    reader = _PageReader(page)
    shots = 0
    with trio.move_on_after(timeout) as scope:
        try:
            await reader.start()
            if not page_url:
                page_url = evidence.page_url = await page.url()
            if candidates:
                found = await reader.candidates([f.selector for f in findings], 200)
                evidence.images_with_alt = int(found.get("imagesWithAlt") or 0)
                evidence.links = int(found.get("linkCount") or 0)
                evidence.items.extend(_candidate_items(page_url, found, MAX_CANDIDATES_PER_PAGE))
                evidence.candidates_scanned = True
            for item in evidence.items:
                want = screenshots and shots < MAX_SCREENSHOTS_PER_PAGE and _wants_picture(item)
                try:
                    await _fill(reader, item, want)
                except (CDPError, JavaScriptError) as exc:
                    log.debug("evidence for %s: %s", item.selector, exc)
                    continue
                if item.screenshot is not None:
                    shots += 1
            evidence.items = [i for i in evidence.items if _still_suspicious(i)]
        except (CDPError, JavaScriptError) as exc:
            log.info("evidence collection on %s stopped: %s", without_credentials(page_url), exc)
            evidence.errors.append(f"evidence collection stopped: {exc}")
        finally:
            with trio.move_on_after(5, shield=True):
                await reader.release()
    if scope.cancelled_caught:
        evidence.errors.append(f"evidence collection took longer than {timeout:g} s; partial")
    return evidence
