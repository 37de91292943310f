"""Hand-built evidence for judge and provider tests (no browser needed)."""

from __future__ import annotations

from audit.llm.evidence import ElementEvidence, Evidence, Screenshot
from audit.models import LlmOptions
from tests.llm.conftest import png

PAGE = "http://site.test/page.html"


def item(
    n: int,
    *,
    kind: str = "finding",
    rule_id: str = "color-contrast",
    area: str = "contrast",
    markup: str | None = None,
    shot: bool = False,
    page: str = PAGE,
    nearby: str = "",
) -> ElementEvidence:
    selector = f"#el{n}"
    return ElementEvidence(
        key=(kind, page, rule_id, selector),
        kind=kind,  # type: ignore[arg-type]
        area=area,
        rule_id=rule_id,
        rule="Elements must meet minimum color contrast ratio thresholds",
        problem="Element has insufficient color contrast of 2.32 (foreground #aaaaaa, background #ffffff)",
        success_criteria=["1.4.3"],
        selector=selector,
        page_url=page,
        markup=markup if markup is not None else f'<p id="el{n}" style="color:#aaa">Text {n}</p>',
        element="p",
        found=True,
        name=f"Text {n}",
        role="paragraph",
        text=f"Text {n}",
        nearby_text=nearby,
        style={"color": "rgb(170, 170, 170)", "backgroundColor": "rgb(255, 255, 255)"},
        screenshot=Screenshot("image/png", png(120, 40), 120, 40) if shot else None,
    )


def evidence(*items: ElementEvidence, page: str = PAGE) -> Evidence:
    return Evidence(page_url=page, items=list(items))


def options(provider: str = "anthropic", model: str | None = None) -> LlmOptions:
    return LlmOptions.model_validate({"enabled": True, "provider": provider, **({"model": model} if model else {})})
