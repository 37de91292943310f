"""Evidence you can see: a screenshot of each finding's element, and a thumbnail of its page,
taken while the audited page is still open.

Why here, not later: once the tab moves on, the element and its state are gone. The engine
calls :meth:`RunScreenshots.capture` after axe, the crawl's links and the LLM's evidence, so
nothing it does can change what those saw; and it leaves the page as it found it (the
outline removed, the window scrolled back).

What a shot is: the element's border box plus :attr:`ScreenshotPolicy.margin` CSS pixels of
context on each side, outlined, at the device scale factor; PNG keeps text crisp, and a shot
whose PNG is over ``png_limit`` (a photo) is JPEG. The thumbnail is the viewport at the top of
the page, as a small JPEG. All of them are cut from one capture of the page at its top where
they fit (:mod:`.shot_batch`, :mod:`.shot_crops`: the regions, the 16,384 px limit, the cost);
an element a scrolling ancestor hides in part is shot alone, scrolled into the viewport's
centre and outlined by an overlay drawn in the page (``_Camera.element``).

Bounds: one shot per problem per page (:mod:`audit.problems`: the items of one rule on one
component show the same defect, so a second shot of it on the same page shows nothing new),
at most ``per_problem`` shots of one problem across the run (as many instances as a report
shows of it), at most ``per_rule`` shots per rule per page (findings and needs-review items
each), ``max_bytes`` per run (a shot that would exceed it is dropped, and the rest are not
taken), ``timeout`` seconds per page. A job's pages, audited one at a time by its workers,
each start from what the run stored before (:func:`jobs.screenshots.page_budget`): pages in
flight at once may each take what is left. Elements that cannot be shot are listed with the
reason (``PageShots.skipped``): not found any more, inside a cross-origin (out-of-process) frame,
without a box (``display: none``), or scrolled out of reach. Elements in same-origin frames
and open shadow roots are found through the LLM evidence's resolver (one resolver for both),
and clipped with their frames' offsets. Best effort, like the LLM's evidence: an error is
logged and costs the page its remaining shots, never its audit.

State shots: a finding of the interaction phase (:mod:`audit.interactive`) shows only in the
state a check put the page in (320 CSS px wide, a tooltip shown, focus under a sticky bar),
which the phase undoes before this module runs. So such a check shoots its element while the
state holds (:class:`StateCamera`, through :meth:`Probe.state_shot
<audit.interactive.probe.Probe.state_shot>`), the phase hands those :class:`StateShot` over by
rule and selector, and :meth:`RunScreenshots.capture` uses each in place of the element's shot
of the restored page: the same :class:`Shot`, named and stored alike, its meta's ``state``
saying what it shows ("at 320 CSS px wide").

Who decides: :class:`~audit.engine.EngineLimits` ``screenshots`` holds one
:class:`RunScreenshots` per run, or None (the default: plain engine calls stay fast). The
service sets one for every stored run (``POST /audit`` and jobs), the CLI for ``--format
html``. Whoever stores a run writes each page's shots as artifacts named by
:meth:`PageShots.artifacts`; :class:`ScreenshotIndex` maps them back to the result's items.
"""

from __future__ import annotations

import base64
import logging
import math
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import trio

from cdpdriver import CDPError, JavaScriptError, Page, evaluate
from cdpdriver.protocol import page as page_domain
from cdpdriver.scripts import call_expression, load_script

from .models import Finding, NeedsReviewItem
from .problems.build import EXAMPLES as PROBLEM_EXAMPLES
from .shot_batch import Together, shoot_together
from .shot_crops import Encoded, Encoding, clip_box, image_size
from .urls import without_credentials

log = logging.getLogger(__name__)

WORLD = "a11y-shots"
ShotKind = Literal["finding", "review", "thumbnail"]
#: (kind, page URL, rule id, selector, viewport or ""): what names an item across renumbered
#: ids, viewports and stores.
ItemKey = tuple[str, str, str, str, str]
#: (rule id, selector): the item a state shot is for.
StateKey = tuple[str, str]
#: The names artifacts of screenshots may have; anything else is not one (and not served).
ARTIFACT_NAME = re.compile(r"(?:shot-\d{1,6}-\d{1,6}\.(?:png|jpg)|thumb-\d{1,6}\.jpg)")
_EXTENSIONS = {"image/png": "png", "image/jpeg": "jpg"}
_SKIPPED_KEPT = 50
_BUDGET = "the run's byte budget is spent"
#: The thumbnail's key among the shots taken one by one.
_THUMBNAIL = -1


@dataclass(frozen=True)
class ScreenshotPolicy:
    """How much evidence a run takes: shots per rule per page, bytes per run, and the look."""

    per_rule: int = 3
    #: Shots of one problem across the run: the instances a report shows of it.
    per_problem: int = PROBLEM_EXAMPLES
    max_bytes: int = 20 * 1024 * 1024
    #: CSS pixels of context around the element, on each side.
    margin: int = 16
    #: A PNG shot larger than this is taken again as JPEG at ``quality``.
    png_limit: int = 48_000
    quality: int = 80
    thumbnail_width: int = 320
    thumbnail_quality: int = 70
    #: Seconds per page; what was taken by then is kept.
    timeout: float = 15.0


@dataclass(frozen=True)
class StateShot:
    """An element shot taken by an interactive check while the state it found a barrier in
    held (see the module docstring): what :meth:`RunScreenshots.capture` shows for the item."""

    media_type: str
    data: bytes = field(repr=False)
    width: int
    height: int
    scale: float
    #: The state in words, for the shot's meta: "at 320 CSS px wide", "while hovered".
    state: str


@dataclass(frozen=True)
class Shot:
    """One image: a finding's or needs-review item's element, or a page's thumbnail."""

    kind: ShotKind
    page_url: str
    media_type: str
    data: bytes = field(repr=False)
    width: int
    height: int
    #: Device pixels per CSS pixel: the image shows ``width / scale`` CSS pixels.
    scale: float = 1.0
    #: The item shot (none for a thumbnail), read when the shot is described: the engine tags
    #: a page's items with their viewport only once all its viewports are done.
    item: Finding | NeedsReviewItem | None = field(default=None, repr=False, compare=False)
    #: Its place among its page's shots (1, 2, ...), whatever the viewport: its name.
    number: int = 0
    #: What state of the page it shows, when not the page as loaded (a :class:`StateShot`).
    state: str = ""

    def meta(self) -> dict[str, Any]:
        meta: dict[str, Any] = {
            "kind": self.kind, "pageUrl": self.page_url, "width": self.width,
            "height": self.height, "scale": self.scale,
        }
        item = self.item
        if item is not None:
            meta.update(itemId=item.id, ruleId=item.rule_id, selector=item.selector)
            for name in ("viewport", "fingerprint", "problem"):
                if getattr(item, name, None):
                    meta[name] = getattr(item, name)
        if self.state:
            meta["state"] = self.state
        return meta


@dataclass
class PageShots:
    """What one page gave: its thumbnail, its elements' shots, and the elements it could not
    shoot with the reason (``{kind, itemId, ruleId, selector, reason}``)."""

    page_url: str
    thumbnail: Shot | None = None
    shots: list[Shot] = field(default_factory=list)
    skipped: list[dict[str, str]] = field(default_factory=list)
    #: ``Page.captureScreenshot`` calls it took: 1 when the thumbnail and every element fit
    #: one capture (:mod:`.shot_batch`), one more per element shot one by one.
    captures: int = 0

    @property
    def size(self) -> int:
        return sum(len(s.data) for s in self.images())

    def images(self) -> Iterator[Shot]:
        if self.thumbnail is not None:
            yield self.thumbnail
        yield from self.shots

    def artifacts(self, seq: int) -> list[tuple[str, str, bytes, dict[str, Any]]]:
        """(name, media type, bytes, meta) of each image, for the page numbered ``seq`` in its
        run: ``thumb-<seq>.jpg`` (its meta also lists the skipped elements) and
        ``shot-<seq>-<number>.<png|jpg>``."""
        rows = []
        for shot in self.images():
            meta = shot.meta()
            if shot.kind == "thumbnail":
                name = f"thumb-{seq}.jpg"
                meta["skipped"] = self.skipped[:_SKIPPED_KEPT]
            else:
                name = f"shot-{seq}-{shot.number}.{_EXTENSIONS[shot.media_type]}"
            rows.append((name, shot.media_type, shot.data, meta))
        return rows


class RunScreenshots:
    """The screenshots of one run: its policy, the bytes it may still take, and what each
    page gave, by the URL the page was audited as. Make one per run; when its pages are
    audited one at a time by workers, one per page, given what the run's pages stored before:
    ``spent`` bytes, and ``problem_shots`` (the shots of each problem, by id)."""

    def __init__(
        self, policy: ScreenshotPolicy | None = None, *, spent: int = 0,
        problem_shots: Mapping[str, int] | None = None,
    ) -> None:
        self.policy = policy or ScreenshotPolicy()
        self.spent = spent
        self.pages: dict[str, PageShots] = {}
        #: Shots taken of each problem (by id) in this run, for ``policy.per_problem``.
        self.problem_shots: Counter[str] = Counter(problem_shots or {})

    @property
    def remaining(self) -> int:
        return max(0, self.policy.max_bytes - self.spent)

    async def capture(
        self,
        page: Page,
        page_url: str,
        findings: Sequence[Finding],
        needs_review: Sequence[NeedsReviewItem],
        states: Mapping[StateKey, StateShot] | None = None,
    ) -> PageShots:
        """The page's thumbnail and its items' shots, within the policy; never raises (but
        for cancellation from outside), and leaves the page as it was. A page audited at
        several viewports is captured at each, into the same :class:`PageShots` (one
        thumbnail, at the first). An item with a shot in ``states`` (by rule and selector,
        from the interaction phase) gets that one instead of a shot of the page now."""
        shots = self.pages.setdefault(page_url, PageShots(page_url=page_url))
        chosen = list(self._chosen(findings, needs_review))
        if self.remaining <= 0:
            shots.skipped.extend(_skip(kind, item, _BUDGET) for kind, item in chosen)
            return shots
        camera = _Camera(page, self.policy)
        states = states or {}
        live = [n for n, (_, item) in enumerate(chosen) if (item.rule_id, item.selector) not in states]
        together, alone = Together(), {}
        with trio.move_on_after(self.policy.timeout) as scope:
            try:
                await camera.start()
                await self._shoot_page(camera, shots, chosen, live, together, alone)
            except (CDPError, JavaScriptError) as exc:
                log.info("screenshots of %s stopped: %s", without_credentials(page_url), exc)
            finally:
                with trio.move_on_after(2, shield=True):
                    await camera.clear()
        if scope.cancelled_caught:
            log.info("screenshots of %s: time limit of %g s reached",
                     without_credentials(page_url), self.policy.timeout)
        shots.captures += camera.captures
        self._settle(shots, chosen, states, {n: i for i, n in enumerate(live)}, together, alone)
        return shots

    async def _shoot_page(
        self, camera: _Camera, shots: PageShots, chosen: Sequence[tuple[ShotKind, Finding | NeedsReviewItem]],
        live: Sequence[int], together: Together, alone: dict[int, tuple[Shot | None, str]],
    ) -> None:
        """The thumbnail and the ``live`` items' shots (those without a state shot): cut from
        shared captures (:mod:`.shot_batch`), or one by one where those cannot show them."""
        want_thumbnail = shots.thumbnail is None
        if not live and not want_thumbnail:
            return
        await shoot_together(
            camera, [chosen[n][1].selector for n in live],
            thumbnail_width=self.policy.thumbnail_width if want_thumbnail else 0,
            margin=self.policy.margin, encoding=self._encoding, into=together,
        )
        if want_thumbnail and together.thumbnail_alone:
            alone[_THUMBNAIL] = (await camera.thumbnail(shots.page_url), "")
        for at in together.alone:
            kind, item = chosen[live[at]]
            alone[live[at]] = await camera.element(kind, item, 0)

    @property
    def _encoding(self) -> Encoding:
        policy = self.policy
        return Encoding(policy.png_limit, policy.quality, policy.thumbnail_quality)

    def _settle(
        self, shots: PageShots, chosen: Sequence[tuple[ShotKind, Finding | NeedsReviewItem]],
        states: Mapping[StateKey, StateShot], position: Mapping[int, int], together: Together,
        alone: Mapping[int, tuple[Shot | None, str]],
    ) -> None:
        """What the page's shots came to, in the order of ``chosen`` (thumbnail first): kept
        while the byte budget lasts, skipped with the reason otherwise. An item the page's
        time ran out before is neither."""
        thumbnail = alone.get(_THUMBNAIL, (None, ""))[0]
        if together.thumbnail is not None:
            thumbnail = _made("thumbnail", shots.page_url, together.thumbnail, together.thumbnail_scale)
        if shots.thumbnail is None and thumbnail is not None and self._affords(thumbnail):
            shots.thumbnail = thumbnail
        for n, (kind, item) in enumerate(chosen):
            if self.problem_shots[_problem_key(item)] >= self.policy.per_problem:
                continue  # its problem was shot as a finding on this page, and now has enough
            state, at = states.get((item.rule_id, item.selector)), position.get(n)
            if state is not None:
                shot, reason = _state_shot(kind, item, state, 0), ""
            elif at in together.shots:
                shot, reason = _made(kind, item.page_url, together.shots[at], together.scale, item), ""
            elif at in together.skipped:
                shot, reason = None, together.skipped[at]
            elif n in alone:
                shot, reason = alone[n]
            else:
                continue
            if self.remaining <= 0:
                shots.skipped.append(_skip(kind, item, _BUDGET))
            elif shot is None:
                shots.skipped.append(_skip(kind, item, reason))
            elif not self._affords(shot):
                shots.skipped.append(_skip(kind, item, _BUDGET))
                self.spent = self.policy.max_bytes  # the next ones would not fit either
            else:
                shots.shots.append(replace(shot, number=len(shots.shots) + 1))
                self.problem_shots[_problem_key(item)] += 1

    def _chosen(
        self, findings: Sequence[Finding], needs_review: Sequence[NeedsReviewItem]
    ) -> Iterator[tuple[ShotKind, Finding | NeedsReviewItem]]:
        """The items to shoot: findings, then needs-review items; of each, the first item of
        every problem not shot ``per_problem`` times yet, ``per_rule`` of each rule at most.
        (A problem of both lists that a finding's shot brings to ``per_problem`` is dropped
        from the needs-review items by :meth:`_settle`.)"""
        groups: tuple[tuple[ShotKind, Sequence[Finding | NeedsReviewItem]], ...] = (
            ("finding", findings), ("review", needs_review),
        )
        for kind, items in groups:
            taken: Counter[str] = Counter()
            seen: set[str] = set()
            for item in items:
                problem = _problem_key(item)
                if problem in seen or taken[item.rule_id] >= self.policy.per_rule:
                    continue
                seen.add(problem)
                if self.problem_shots[problem] < self.policy.per_problem:
                    taken[item.rule_id] += 1
                    yield kind, item

    def _affords(self, shot: Shot) -> bool:
        if len(shot.data) > self.remaining:
            return False
        self.spent += len(shot.data)
        return True


def _problem_key(item: Finding | NeedsReviewItem) -> str:
    """The item's problem; an item without one (never, once the engine grouped the page) is
    a problem of its own."""
    return item.problem or f"{item.rule_id} {item.page_url} {item.selector}"


def _made(kind: ShotKind, page_url: str, image: Encoded, scale: float,
          item: Finding | NeedsReviewItem | None = None) -> Shot:
    return Shot(kind, page_url, image.media_type, image.data, image.width, image.height,
                scale=scale, item=item)


def _state_shot(kind: ShotKind, item: Finding | NeedsReviewItem, state: StateShot, number: int) -> Shot:
    return Shot(kind, item.page_url, state.media_type, state.data, state.width, state.height,
                scale=state.scale, item=item, number=number, state=state.state)


def _skip(kind: str, item: Finding | NeedsReviewItem, reason: str) -> dict[str, str]:
    return {"kind": kind, "itemId": item.id, "ruleId": item.rule_id, "selector": item.selector,
            "reason": reason}


class _Camera:
    """The CDP half: an isolated world holding the page-side helpers (``js/evidence_shots.js``
    on the LLM evidence's resolver), and ``Page.captureScreenshot`` of clips."""

    def __init__(self, page: Page, policy: ScreenshotPolicy) -> None:
        self.page = page
        self.policy = policy
        self.world: int | None = None
        #: ``Page.captureScreenshot`` calls made.
        self.captures = 0

    async def start(self) -> None:
        self.world = await self.page.isolated_world(name=WORLD)
        await self._eval(load_script("audit", "evidence_page_helpers"))
        await self._eval(load_script("audit", "evidence_shots"))

    async def _eval(self, expression: str) -> Any:
        return await evaluate(self.page.session, expression, self.world, timeout=10)

    async def _call(self, name: str, *args: Any) -> Any:
        return await self._eval(call_expression(f"__a11yShots.{name}", *args))

    async def clear(self) -> None:
        if self.world is not None:
            try:
                await self._call("clear")
            except (CDPError, JavaScriptError) as exc:
                log.debug("could not clear the screenshot outline: %s", exc)

    async def boxes(self, selectors: list[str]) -> dict[str, Any]:
        """The page scrolled to its top, and each selector's box as it lies (:mod:`.shot_batch`)."""
        return await self._call("boxes", selectors)

    async def reveal(self, clip: dict[str, int], selectors: list[str]) -> dict[str, Any]:
        """The page scrolled so ``clip`` is in view, and where the elements now lie
        (:mod:`.shot_batch`)."""
        return await self._call("reveal", clip, selectors)

    async def top(self) -> None:
        await self._call("top")

    async def region(self, clip: dict[str, int], *, beyond_viewport: bool) -> bytes:
        """A PNG of ``clip`` (CSS px of the document) as the page lies, encoded for speed: it
        is cut up (:mod:`.shot_crops`), never kept. ``beyond_viewport`` only when the clip is
        not inside the viewport: it costs a layout of the whole document (:mod:`.shot_batch`)."""
        self.captures += 1
        data = await self.page.session.execute(
            page_domain.capture_screenshot(
                format="png", clip=page_domain.Viewport(scale=1.0, **clip),
                capture_beyond_viewport=beyond_viewport, optimize_for_speed=True,
            ),
            timeout=15,
        )
        return base64.b64decode(data)

    async def thumbnail(self, page_url: str) -> Shot | None:
        view = await self._call("top")
        width, height = float(view["width"]), float(view["height"])
        if width <= 0 or height <= 0:
            return None
        scale = min(1.0, self.policy.thumbnail_width / (width * float(view["dpr"])))
        clip = {"x": 0, "y": 0, "width": math.floor(width), "height": math.floor(height)}
        data = await self._capture(clip, "jpeg", self.policy.thumbnail_quality, scale)
        size = image_size(data)
        return Shot("thumbnail", page_url, "image/jpeg", data, *size, scale=round(scale * float(view["dpr"]), 4))

    async def element(
        self, kind: ShotKind, item: Finding | NeedsReviewItem, number: int
    ) -> tuple[Shot | None, str]:
        """The item's shot, or None and why not."""
        framed = await self._call("frame", item.selector, True)
        if not isinstance(framed, dict) or "skip" in framed:
            return None, str((framed or {}).get("skip", "not found"))
        clip = clip_box(framed["box"], framed["view"], self.policy.margin)
        if clip is None:
            return None, "outside the part of the page that can be scrolled into view"
        media_type, data = await self._clip_image(clip)
        width, height = image_size(data)
        return Shot(
            kind, item.page_url, media_type, data, width, height,
            scale=float(framed["view"]["dpr"]), item=item, number=number,
        ), ""

    async def state(
        self, selector: str, state: str, scroll: bool, beside: str | None
    ) -> StateShot | None:
        """The element of ``selector`` as the page shows it now (scrolled into view only with
        ``scroll``), the box of ``beside`` included in the clip; None when it cannot be shot."""
        framed = await self._call("frame", selector, True, scroll)
        if not isinstance(framed, dict) or "skip" in framed:
            return None
        box = dict(framed["box"])
        other = await self._call("box", beside) if beside else None
        if isinstance(other, dict):
            right = max(box["x"] + box["width"], other["x"] + other["width"])
            bottom = max(box["y"] + box["height"], other["y"] + other["height"])
            box["x"], box["y"] = min(box["x"], other["x"]), min(box["y"], other["y"])
            box["width"], box["height"] = right - box["x"], bottom - box["y"]
        clip = clip_box(box, framed["view"], self.policy.margin)
        if clip is None:
            return None
        media_type, data = await self._clip_image(clip)
        width, height = image_size(data)
        return StateShot(media_type, data, width, height, float(framed["view"]["dpr"]), state)

    async def _clip_image(self, clip: Mapping[str, float]) -> tuple[str, bytes]:
        """(media type, bytes) of a clip: PNG, or JPEG when the PNG is over the policy's limit."""
        data = await self._capture(clip, "png", None, 1.0)
        if len(data) > self.policy.png_limit:
            return "image/jpeg", await self._capture(clip, "jpeg", self.policy.quality, 1.0)
        return "image/png", data

    async def _capture(self, clip: Mapping[str, float], fmt: str, quality: int | None, scale: float) -> bytes:
        self.captures += 1
        data = await self.page.session.execute(
            page_domain.capture_screenshot(
                format=fmt,  # type: ignore[arg-type]
                quality=quality,
                clip=page_domain.Viewport(scale=scale, **clip),
            ),
            timeout=15,
        )
        return base64.b64decode(data)


class StateCamera:
    """State shots of one page for the interaction phase (:class:`StateShot`): the element shot's
    camera, its world made once per document, the outline removed and the scrolling put back
    after each shot, so the state the check holds is left as it was."""

    def __init__(self, page: Page, policy: ScreenshotPolicy) -> None:
        self.page = page
        self._camera = _Camera(page, policy)
        self._document: str | None = None

    async def shoot(
        self, selector: str, state: str, *, scroll: bool = True, beside: str | None = None
    ) -> StateShot | None:
        """The element of ``selector`` now, with ``beside``'s box in the clip too (a tooltip
        beside its trigger); ``scroll`` False shoots it where it is. Raises
        :class:`~cdpdriver.CDPError` or :class:`~cdpdriver.JavaScriptError` for a page that
        will not be shot."""
        if self._document != self.page.document_loader_id:
            await self._camera.start()
            self._document = self.page.document_loader_id
        try:
            return await self._camera.state(selector, state, scroll, beside)
        finally:
            with trio.move_on_after(2, shield=True):
                await self._camera.clear()


# --------------------------------------------------------------------------- back to items


@dataclass(frozen=True)
class Image:
    """A stored or captured image as a report shows it: inline (``data``) or by its artifact
    ``name`` (the dashboard fetches those with the API token)."""

    media_type: str
    width: int
    height: int
    scale: float = 1.0
    data: bytes | None = field(default=None, repr=False)
    name: str = ""

    @property
    def css_width(self) -> int:
        return max(1, round(self.width / (self.scale or 1.0)))

    @property
    def css_height(self) -> int:
        return max(1, round(self.height / (self.scale or 1.0)))

    def data_url(self) -> str:
        return f"data:{self.media_type};base64,{base64.b64encode(self.data or b'').decode('ascii')}"


def item_key(kind: str, item: Finding | NeedsReviewItem) -> ItemKey:
    return (kind, item.page_url, item.rule_id, item.selector, getattr(item, "viewport", None) or "")


@dataclass
class ScreenshotIndex:
    """Images by the item (:data:`ItemKey`) or page URL they show: how a result, whose ids
    were renumbered across pages, finds its items' shots."""

    items: dict[ItemKey, Image] = field(default_factory=dict)
    thumbnails: dict[str, Image] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.items or self.thumbnails)

    def for_item(self, kind: str, item: Finding | NeedsReviewItem) -> Image | None:
        return self.items.get(item_key(kind, item))

    def for_page(self, url: str) -> Image | None:
        return self.thumbnails.get(url)

    @classmethod
    def of_pages(cls, pages: Iterable[PageShots]) -> ScreenshotIndex:
        """The images of a run captured in this process (the CLI's)."""
        index = cls()
        for page in pages:
            for shot in page.images():
                image = Image(shot.media_type, shot.width, shot.height, shot.scale, shot.data)
                index._add(shot.meta(), image)
        return index

    @classmethod
    def of_artifacts(cls, rows: Iterable[tuple[str, str, Mapping[str, Any] | None, bytes | None]]) -> ScreenshotIndex:
        """The images of a stored run from its artifacts' (name, media type, meta, data);
        ``data`` None for images shown by name. Rows that are not screenshots are ignored."""
        index = cls()
        for name, media_type, meta, data in rows:
            if not ARTIFACT_NAME.fullmatch(name) or not meta:
                continue
            image = Image(media_type, int(meta.get("width") or 0), int(meta.get("height") or 0),
                          float(meta.get("scale") or 1.0), data, name)
            index._add(meta, image)
        return index

    def _add(self, meta: Mapping[str, Any], image: Image) -> None:
        if meta.get("kind") == "thumbnail":
            self.thumbnails[str(meta.get("pageUrl", ""))] = image
        else:
            key = (str(meta.get("kind")), str(meta.get("pageUrl", "")), str(meta.get("ruleId", "")),
                   str(meta.get("selector", "")), str(meta.get("viewport") or ""))
            self.items[key] = image
