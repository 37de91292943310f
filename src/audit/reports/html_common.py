"""What every part of the HTML report shares: escaping, the palette, and the context a part
is rendered in (where its headings start, how its ids are prefixed, where its images are).

Every string that came from an audited page or an LLM goes through :func:`esc`; the only
links are rule help URLs, and only when they are http(s). Images are inline data URLs (a
report that opens offline) or, for the dashboard, named artifacts it fetches itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from urllib.parse import urlsplit

from ..screenshots import Image, ScreenshotIndex
from ._common import clean

#: (foreground, background) pairs used in the CSS; tests check their contrast (4.5:1).
PALETTE: dict[str, tuple[str, str]] = {
    "body": ("#1b1b1b", "#ffffff"),
    "muted": ("#4a4a4a", "#ffffff"),
    "link": ("#0b4f9c", "#ffffff"),
    "th": ("#1b1b1b", "#eceff3"),
    "code": ("#1b1b1b", "#f3f4f6"),
    "card": ("#1b1b1b", "#f8f9fb"),
    "critical": ("#ffffff", "#8a1c1c"),
    "serious": ("#ffffff", "#9a3412"),
    "moderate": ("#ffffff", "#6b4e00"),
    "minor": ("#ffffff", "#1d4ed8"),
    "ok": ("#ffffff", "#17692f"),
    "failed": ("#ffffff", "#8a1c1c"),
    "skipped": ("#ffffff", "#4a4a4a"),
}
BADGES = ("critical", "serious", "moderate", "minor", "ok", "failed", "skipped")


def esc(value: object) -> str:
    """``value`` as HTML text or attribute value: control characters replaced, markup and
    quotes escaped."""
    return escape(clean(value), quote=True)


def badge(kind: str) -> str:
    return f'<span class="badge b-{esc(kind)}">{esc(kind)}</span>'


def help_link(url: str, rule_id: str) -> str:
    if urlsplit(url).scheme.lower() in ("http", "https"):
        return (
            f'<a href="{esc(url)}">Rule help'
            f'<span class="visually-hidden"> for {esc(rule_id)}</span></a>'
        )
    return f"Rule help: {esc(url)}" if url else ""


@dataclass
class Context:
    """Where a report is rendered: ``heading`` is the level of its section headings (2 in a
    document of its own, deeper inside the dashboard), ``prefix`` starts every id it makes
    (so two reports, or a report and its host page, never share one)."""

    heading: int = 2
    prefix: str = ""
    screenshots: ScreenshotIndex = field(default_factory=ScreenshotIndex)

    def id(self, name: str) -> str:
        return f"{self.prefix}{name}"

    def h(self, depth: int, inner_html: str, *, ident: str | None = None, cls: str = "") -> str:
        """A heading ``depth`` levels below the section headings (0: a section's own)."""
        level = min(6, self.heading + depth)
        attrs = (f' id="{esc(ident)}"' if ident else "") + (f' class="{esc(cls)}"' if cls else "")
        return f"<h{level}{attrs}>{inner_html}</h{level}>"


def image_tag(image: Image, alt: str, cls: str) -> str:
    """An ``img`` at the image's CSS size: inline as a data URL, or by artifact name
    (``data-artifact``, no ``src`` yet) for a host that fetches it."""
    size = f'width="{image.css_width}" height="{image.css_height}"'
    if image.data is not None:
        return f'<img class="{cls}" src="{esc(image.data_url())}" alt="{esc(alt)}" {size}>'
    return f'<img class="{cls}" data-artifact="{esc(image.name)}" alt="{esc(alt)}" {size}>'
