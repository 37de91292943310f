"""Evidence from a real page in the shared Chromium: markup, accessible name and role from
the accessibility tree, nearby text, clipped screenshots, and the suspicious things axe passes."""

from __future__ import annotations

import struct

from audit.llm.evidence import (
    ALT_RULE,
    LINK_RULE,
    collect_evidence,
    generic_link_text,
    suspicious_alt,
)
from audit.models import Finding
from tests.audit.support import open_page, resolve_selector
from tests.llm.pages import REVIEW_PAGE


def _png_size(data: bytes) -> tuple[int, int]:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    return struct.unpack(">II", data[16:24])


def _contrast_finding(url: str) -> Finding:
    return Finding(
        id="f1", rule_id="color-contrast", description="contrast", impact="serious", level="AA",
        element="p", selector="#low", html='<p id="low" style="color:#aaa;background:#fff">',
        help="https://dequeuniversity.com/rules/axe/4.10/color-contrast", page_url=url,
        success_criteria=["1.4.3"], failure_summary="Element has insufficient color contrast of 2.32",
    )


async def test_collects_evidence_and_candidates(page, site):
    url = site.route("/llm/evidence.html", REVIEW_PAGE)
    await open_page(page, url)
    finding = _contrast_finding(url)
    evidence = await collect_evidence(page, [finding], [])

    assert evidence.errors == []
    assert evidence.images_with_alt == 2 and evidence.links == 3
    by_rule = {}
    for item in evidence.items:
        by_rule.setdefault(item.rule_id, []).append(item)

    contrast = by_rule["color-contrast"][0]
    assert contrast.found and contrast.kind == "finding" and contrast.area == "contrast"
    assert contrast.markup.startswith('<p id="low"') and "Light grey text on white." in contrast.markup
    assert contrast.role == "paragraph"
    assert contrast.style["color"] == "rgb(170, 170, 170)"
    assert "planted 200 trees" in contrast.nearby_text or "annual report" in contrast.nearby_text
    width, height = _png_size(contrast.screenshot.data)
    assert (contrast.screenshot.width, contrast.screenshot.height) == (width, height)
    assert 20 <= height <= 80 and width >= 100

    [image] = by_rule[ALT_RULE]
    assert image.kind == "candidate" and image.selector == "#photo"
    assert image.checked_text == "Volunteers in the park" and "repeats the adjacent text" in image.problem
    assert image.name == "Volunteers in the park" and image.role == "image"
    w, h = _png_size(image.screenshot.data)
    assert 170 <= w <= 180 and 100 <= h <= 110  # 160x90 plus 8 px padding each side

    links = sorted(by_rule[LINK_RULE], key=lambda i: i.selector)
    assert [i.name for i in links] == ["read more", "click here"]
    report = links[1]
    assert report.selector == "#report" and report.role == "link" and report.screenshot is None
    assert "annual report" in report.nearby_text
    shadow = links[0]
    assert shadow.selector.startswith("#host >>> ")
    resolved = await resolve_selector(page, shadow.selector)
    assert resolved is not None and resolved["tag"] == "a"


async def test_unresolvable_elements_keep_axe_markup(page, site):
    url = site.route("/llm/gone.html", "<!doctype html><html lang=en><title>x</title><p>hi</p>")
    await open_page(page, url)
    finding = _contrast_finding(url)
    evidence = await collect_evidence(page, [finding], [], candidates=False)
    [item] = evidence.items
    assert item.found is False and item.markup == finding.html and item.screenshot is None


def test_heuristics():
    assert suspicious_alt("IMG_0412.jpg")
    assert suspicious_alt("DSC 0042")
    assert suspicious_alt("image")
    assert suspicious_alt("Photo!")
    assert suspicious_alt("hero-banner", src="https://cdn.test/img/hero-banner.webp")
    assert suspicious_alt("Annual report", adjacent="Annual report")
    assert suspicious_alt("*")
    assert suspicious_alt("Map of the park with the new trees marked") is None
    assert suspicious_alt("Company logo: Acme") is None
    for text in ("click here", "Click here!", "here", "Read more »", "more", "Learn more"):
        assert generic_link_text(text), text
    for text in ("Download the annual report", "About us", ""):
        assert not generic_link_text(text), text
