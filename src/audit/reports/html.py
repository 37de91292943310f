"""Self-contained HTML report: one file, inline CSS, no scripts, fonts or images to fetch.

Every string that came from an audited page or an LLM (URLs, selectors, markup, messages) is
escaped; the only links are rule help URLs, and only when they are http(s). The report
should pass its own audit: ``lang``, one ``h1`` and ordered headings, tables with captions
and header cells, impact conveyed in text as well as colour, and colours from ``PALETTE``
whose text/background pairs have a contrast ratio of at least 4.5:1.
"""

from __future__ import annotations

from html import escape
from urllib.parse import urlsplit

from ..meta import package_version
from ..models import AuditResult
from ._common import clean, fmt_score, group_by_rule

#: (foreground, background) pairs used in the CSS; tests check their contrast.
PALETTE: dict[str, tuple[str, str]] = {
    "body": ("#1b1b1b", "#ffffff"),
    "muted": ("#4a4a4a", "#ffffff"),
    "link": ("#0b4f9c", "#ffffff"),
    "th": ("#1b1b1b", "#eceff3"),
    "code": ("#1b1b1b", "#f3f4f6"),
    "critical": ("#ffffff", "#8a1c1c"),
    "serious": ("#ffffff", "#9a3412"),
    "moderate": ("#ffffff", "#6b4e00"),
    "minor": ("#ffffff", "#1d4ed8"),
    "ok": ("#ffffff", "#17692f"),
    "failed": ("#ffffff", "#8a1c1c"),
    "skipped": ("#ffffff", "#4a4a4a"),
}


def _css() -> str:
    p = PALETTE
    badges = "\n".join(
        f".b-{name}{{color:{fg};background:{bg}}}"
        for name, (fg, bg) in p.items()
        if name in ("critical", "serious", "moderate", "minor", "ok", "failed", "skipped")
    )
    return f"""
body{{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5;
color:{p["body"][0]};background:{p["body"][1]};margin:0 auto;padding:1rem 1.5rem;max-width:75rem}}
a{{color:{p["link"][0]}}}
a:focus,a:hover{{outline:3px solid {p["link"][0]};outline-offset:2px}}
.skip{{position:absolute;left:-999px}}
.skip:focus{{left:1rem;top:1rem;background:#fff;padding:.25rem .5rem}}
.muted{{color:{p["muted"][0]}}}
dl.summary{{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}}
dl.summary dt{{font-weight:600}}
dl.summary dd{{margin:0}}
table{{border-collapse:collapse;width:100%;margin:.5rem 0 1.5rem}}
caption{{text-align:left;font-weight:600;padding:.25rem 0}}
th,td{{border:1px solid #8c8c8c;padding:.35rem .5rem;text-align:left;vertical-align:top}}
th{{color:{p["th"][0]};background:{p["th"][1]}}}
code{{color:{p["code"][0]};background:{p["code"][1]};padding:0 .2rem;
font-family:ui-monospace,Consolas,monospace;font-size:.9em;overflow-wrap:anywhere;white-space:pre-wrap}}
.badge{{display:inline-block;padding:0 .45rem;border-radius:.25rem;font-weight:600;font-size:.9em}}
{badges}
.visually-hidden{{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}}
"""


def _e(value: object) -> str:
    return escape(clean(value), quote=True)


def _badge(kind: str) -> str:
    return f'<span class="badge b-{_e(kind)}">{_e(kind)}</span>'


def _help_link(url: str, rule_id: str) -> str:
    if urlsplit(url).scheme.lower() in ("http", "https"):
        return (
            f'<a href="{_e(url)}">Rule help'
            f'<span class="visually-hidden"> for {_e(rule_id)}</span></a>'
        )
    return f"Rule help: {_e(url)}" if url else ""


def render_html(result: AuditResult) -> str:
    s = result.stats
    h: list[str] = []
    add = h.append
    add("<!DOCTYPE html>")
    add('<html lang="en">')
    add("<head>")
    add('<meta charset="utf-8">')
    add('<meta name="viewport" content="width=device-width, initial-scale=1">')
    add(f"<title>Accessibility report: {_e(result.url)}</title>")
    add(f"<style>{_css()}</style>")
    add("</head>")
    add("<body>")
    add('<a class="skip" href="#findings">Skip to findings</a>')
    add("<header>")
    add("<h1>Accessibility report</h1>")
    add(
        f"<p>Audit of <code>{_e(result.url)}</code> against WCAG {_e(result.wcag_version)} "
        f"level {_e(result.wcag_level)}.</p>"
    )
    add("</header>")
    add("<main>")

    add('<section aria-labelledby="summary">')
    add('<h2 id="summary">Summary</h2>')
    add('<dl class="summary">')
    rows = [
        ("Score", f"{result.score:.1f} out of 100"),
        ("Conformant", "yes" if result.conformant else "no"),
        (
            "Findings",
            f"{s.total_findings} (critical {s.critical}, serious {s.serious}, "
            f"moderate {s.moderate}, minor {s.minor})",
        ),
        ("Needs review", str(len(result.needs_review))),
        ("Pages", str(s.total_pages)),
        ("Duration", f"{result.duration_ms} ms"),
        ("Engine", f"{result.engine.name} {result.engine.version}"),
    ]
    if result.best_practices:
        rows.append(("Best-practice issues (not WCAG)", str(len(result.best_practices))))
    if result.llm is not None:
        llm_text = f"{result.llm.provider} {result.llm.model}, {result.llm.reviewed} reviewed"
        if result.llm.error:
            llm_text += f"; error: {result.llm.error}"
        rows.append(("LLM review", llm_text))
    for term, value in rows:
        add(f"<dt>{_e(term)}</dt><dd>{_e(value)}</dd>")
    add("</dl>")
    add("</section>")

    if result.pages:
        add('<section aria-labelledby="pages">')
        add('<h2 id="pages">Pages</h2>')
        add("<table>")
        add("<caption>Audited pages</caption>")
        add(
            '<thead><tr><th scope="col">Page</th><th scope="col">Status</th>'
            '<th scope="col">HTTP</th><th scope="col">Score</th>'
            '<th scope="col">Findings</th><th scope="col">Notes</th></tr></thead>'
        )
        add("<tbody>")
        for p in result.pages:
            notes = []
            if p.error is not None:
                notes.append(f"{_e(p.error.code)}: {_e(p.error.message)}")
            notes.extend(f"Untested frame: <code>{_e(fr)}</code>" for fr in p.untested_frames)
            add(
                f'<tr><th scope="row"><code>{_e(p.url)}</code></th><td>{_badge(p.status)}</td>'
                f"<td>{_e(p.http_status if p.http_status is not None else '-')}</td>"
                f"<td>{_e(fmt_score(p.score))}</td><td>{p.findings}</td>"
                f"<td>{'<br>'.join(notes)}</td></tr>"
            )
        add("</tbody></table>")
        add("</section>")

    add('<section id="findings" aria-labelledby="findings-h" tabindex="-1">')
    add('<h2 id="findings-h">Findings</h2>')
    groups = group_by_rule(result.findings)
    if not groups:
        add("<p>No WCAG findings.</p>")
    for g in groups:
        add("<section>")
        add(f"<h3>{_badge(g.impact)} {_e(g.rule_id)}: {_e(g.help_text or g.description)}</h3>")
        if g.description:
            add(f'<p class="muted">{_e(g.description)}</p>')
        add(
            f"<p>WCAG level {_e(g.level)}; success criteria "
            f"{_e(', '.join(g.success_criteria) or '-')}. {_help_link(g.help_url, g.rule_id)}</p>"
        )
        add("<table>")
        add(f"<caption>Elements failing {_e(g.rule_id)} ({len(g.findings)})</caption>")
        add(
            '<thead><tr><th scope="col">ID</th><th scope="col">Page</th>'
            '<th scope="col">Element</th><th scope="col">Markup</th>'
            '<th scope="col">How to fix</th></tr></thead>'
        )
        add("<tbody>")
        for f in g.findings:
            fix = _e(f.failure_summary or "").replace("\n", "<br>")
            if f.llm is not None:
                fix += (
                    f"<br>LLM: {_e(f.llm.verdict)} ({f.llm.confidence:.2f}): {_e(f.llm.reasoning)}"
                )
                if f.llm.suggested_fix:
                    fix += f"<br>Suggested fix: <code>{_e(f.llm.suggested_fix)}</code>"
            add(
                f'<tr><th scope="row">{_e(f.id)}</th><td><code>{_e(f.page_url)}</code></td>'
                f"<td><code>{_e(f.selector)}</code></td><td><code>{_e(f.html)}</code></td>"
                f"<td>{fix}</td></tr>"
            )
        add("</tbody></table>")
        add("</section>")
    add("</section>")

    if result.needs_review:
        add('<section aria-labelledby="review">')
        add('<h2 id="review">Needs review</h2>')
        add(
            "<p>axe-core could not decide these elements; check them by hand. "
            "They do not count as findings.</p>"
        )
        add("<table>")
        add("<caption>Elements that need review</caption>")
        add(
            '<thead><tr><th scope="col">ID</th><th scope="col">Rule</th>'
            '<th scope="col">Page</th><th scope="col">Element</th>'
            '<th scope="col">Reason</th></tr></thead>'
        )
        add("<tbody>")
        for r in result.needs_review:
            add(
                f'<tr><th scope="row">{_e(r.id)}</th><td>{_e(r.rule_id)} '
                f"({_e(', '.join(r.success_criteria) or '-')})</td>"
                f"<td><code>{_e(r.page_url)}</code></td><td><code>{_e(r.selector)}</code></td>"
                f"<td>{_e(r.reason)}</td></tr>"
            )
        add("</tbody></table>")
        add("</section>")

    if result.best_practices:
        add('<section aria-labelledby="bp">')
        add('<h2 id="bp">Best practices</h2>')
        add("<p>Not WCAG requirements; no effect on score or conformance.</p>")
        add("<table>")
        add("<caption>Best-practice issues</caption>")
        add(
            '<thead><tr><th scope="col">ID</th><th scope="col">Rule</th>'
            '<th scope="col">Impact</th><th scope="col">Page</th>'
            '<th scope="col">Element</th></tr></thead>'
        )
        add("<tbody>")
        for b in result.best_practices:
            add(
                f'<tr><th scope="row">{_e(b.id)}</th><td>{_e(b.rule_id)} ({_e(b.outcome)})</td>'
                f"<td>{_badge(b.impact)}</td><td><code>{_e(b.page_url)}</code></td>"
                f"<td><code>{_e(b.selector)}</code></td></tr>"
            )
        add("</tbody></table>")
        add("</section>")

    add("</main>")
    add(f'<footer><p class="muted">Generated by a11y {_e(package_version())}.</p></footer>')
    add("</body>")
    add("</html>")
    return "\n".join(h) + "\n"
