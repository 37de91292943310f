"""A generated site whose pages share a header, a footer, a sidebar and a component, with
churn between pages (different hrefs, texts, counts and positions, a current-page state),
plus look-alike components that are different problems; served by the test :class:`Site`.

Each defect carries a ``data-case`` attribute naming the component it belongs to (data
attributes are no part of a component's signature), so a test can tell which findings must
share a problem; ``expected`` counts the instances of each case as served.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from tests.support.site import Site

PAGE = """<!doctype html><html lang="en"><head><title>Page {index}</title><style>
body {{ background: #fff; color: #111; font: 16px/1.5 sans-serif; }}
.muted {{ color: #b0b0b0; }}
.hint {{ color: #b3b3b3; font-style: italic; }}
</style></head><body>
<header class="site-header">
  {header_extra}
  <form class="search" role="search"><input type="text" class="search-input" data-case="search" value="{query}"></form>
  <nav class="main-nav" aria-label="Main"><ul class="menu">{nav}</ul></nav>
</header>
<div class="layout">
  <main class="content">
    <h1>Page {index}</h1>
    {main}
  </main>
  <aside class="sidebar"><div class="widget">{sidebar_extra}<img class="avatar" data-case="avatar" src="/ps/avatar-{index}.png"></div></aside>
</div>
<footer class="site-footer"><p>&copy; {year} <span class="muted" data-case="muted">{footer_text}</span></p></footer>
</body></html>"""

CARD = """<article class="card"><h2>{title}</h2><p>{text}</p>
<button class="action" data-case="card"><svg width="16" height="16" aria-hidden="true"></svg></button></article>"""
PROMO = """<section class="promo" aria-label="Offer {n}"><p>{text}</p>
<button class="action" data-case="promo"><svg width="16" height="16" aria-hidden="true"></svg></button></section>"""
HINT = '<p>See <span class="hint" data-case="hint">{text}</span>.</p>'
NOTE = '<p>Note: <span class="muted" data-case="muted">{text}</span></p>'


#: The rule each case's defect breaks (other checks may flag the same elements for more).
CASE_RULES = {
    "nav": "link-name",
    "search": "label",
    "avatar": "image-alt",
    "card": "button-name",
    "promo": "button-name",
    "muted": "color-contrast",
    "hint": "color-contrast",
}


@dataclass
class ProblemSite:
    """``pages`` pages at ``/ps/0`` … on ``site``; ``expected[case]`` instances served."""

    site: Site
    pages: int = 4
    expected: Counter[str] = field(default_factory=Counter)
    urls: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        for index in range(self.pages):
            self.urls.append(self.site.route(f"/ps/{index}", self._page(index)))

    def _nav(self, index: int) -> str:
        """Icon links without names to the other pages, in an order that rotates by page,
        the current page's item marked; a page more or less on some pages."""
        targets = [(index + step) % self.pages for step in range(self.pages)]
        if index % 2:
            targets = targets[:-1]
        items = []
        for target in targets:
            current = target == index
            cls = "item current" if current else "item"
            aria = ' aria-current="page"' if current else ""
            items.append(
                f'<li class="{cls}"><a class="nav-link" data-case="nav" href="/ps/{target}"{aria}>'
                f'<svg width="12" height="12" aria-hidden="true"></svg></a></li>'
            )
            self.expected["nav"] += 1
        return "".join(items)

    def _main(self, index: int) -> str:
        parts = []
        if index % 2 == 0:  # the look-alike button of another component
            parts.append(PROMO.format(n=index, text=f"Offer number {index} for you"))
            self.expected["promo"] += 1
        for n in range(1 + index % 3):
            parts.append(CARD.format(title=f"Card {index}.{n}", text="Lorem ipsum " * (n + 1)))
            self.expected["card"] += 1
        parts.insert(index % len(parts), HINT.format(text=f"hint {index}"))
        self.expected["hint"] += 1
        if index == 1:  # the footer's style, used once in the content too: the same fix
            parts.append(NOTE.format(text="one more muted note"))
            self.expected["muted"] += 1
        return "\n".join(parts)

    def _page(self, index: int) -> str:
        for case in ("search", "avatar", "muted"):
            self.expected[case] += 1
        return PAGE.format(
            index=index,
            query=f"query {index}",
            year=2020 + index,
            header_extra='<a class="logo" href="/ps/0">Home</a>' * (index % 2),
            sidebar_extra="<p>Related</p>" * index,
            nav=self._nav(index),
            main=self._main(index),
            footer_text=f"Company {index}, all rights reserved",
        )
