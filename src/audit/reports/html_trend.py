"""The site's trend in the HTML report: an inline SVG chart of its runs' scores (a line) and
findings (bars), and the same figures as a table, for people who do not see the chart.

``history`` is what ``GET /sites/{site}/history`` answers under ``runs``, oldest first:
``{id, createdAt, status, score, pages, findings: {critical, serious, moderate, minor,
total}}``. Runs without a score (failed, cancelled, unfinished) are left out of the chart.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .html_common import PALETTE, Context, esc

WIDTH, HEIGHT, PAD = 560, 180, 6
#: At most this many runs are drawn (the newest).
MAX_RUNS = 60


def _findings(run: Mapping[str, Any]) -> int:
    found = run.get("findings")
    if isinstance(found, Mapping):
        return int(found.get("total") or 0)
    return int(found or 0)


def _day(run: Mapping[str, Any]) -> str:
    return str(run.get("createdAt") or "")[:10]


def trend_section(ctx: Context, history: Sequence[Mapping[str, Any]] | None, current: str = "") -> list[str]:
    """The trend section, or nothing without history. ``current`` is the run the report is
    of (marked in the table)."""
    runs = [r for r in history or [] if isinstance(r, Mapping) and r.get("score") is not None][-MAX_RUNS:]
    if not runs:
        return []
    heading = ctx.id("trend")
    first, last = runs[0], runs[-1]
    if len(runs) == 1:  # one point is no trend: a chart of it would be one full-height bar
        summary = (f"One run of this site so far ({_day(first)}): score {float(first['score']):.1f}, "
                   f"{_findings(first)} findings. The trend appears from the second run on.")
        chart = []
    else:
        summary = (
            f"Over {len(runs)} runs from {_day(first)} to {_day(last)}, "
            f"the score went from {float(first['score']):.1f} to {float(last['score']):.1f} and the "
            f"findings from {_findings(first)} to {_findings(last)}."
        )
        chart = [
            f'<figure class="trend">{_chart(runs)}'
            '<figcaption><span class="key key-score"></span> score (left axis, 0 to 100) '
            '<span class="key key-findings"></span> findings (right axis)</figcaption></figure>',
        ]
    return [
        f'<section class="report-trend" aria-labelledby="{heading}">',
        ctx.h(0, "Trend of this site", ident=heading),
        f"<p>{esc(summary)}</p>",
        *chart,
        *_table(runs, current),
        "</section>",
    ]


def _chart(runs: Sequence[Mapping[str, Any]]) -> str:
    """The chart, hidden from assistive technology (the sentence before it and the table
    after it say the same): an SVG of shapes only, its axis labels HTML beside it (text in
    an SVG, or over one, is text whose contrast axe-core cannot decide)."""
    most = max(1, max(_findings(r) for r in runs))
    step = WIDTH / len(runs)
    score_colour, bar_colour = PALETTE["link"][0], PALETTE["serious"][1]

    def x_of(n: int) -> float:
        return step * (n + 0.5)

    def y_score(score: float) -> float:
        return PAD + (HEIGHT - 2 * PAD) * (1 - max(0.0, min(100.0, score)) / 100)

    shapes = [
        f'<line x1="0" y1="{y_score(v):.1f}" x2="{WIDTH}" y2="{y_score(v):.1f}" stroke="#8c8c8c" stroke-width="1"/>'
        for v in (0, 50, 100)
    ]
    bar_w = max(2.0, step * 0.5)
    for n, run in enumerate(runs):
        height = (HEIGHT - 2 * PAD) * _findings(run) / most
        shapes.append(
            f'<rect x="{x_of(n) - bar_w / 2:.1f}" y="{HEIGHT - PAD - height:.1f}" width="{bar_w:.1f}" '
            f'height="{height:.1f}" fill="{bar_colour}" fill-opacity="0.75"/>'
        )
    points = " ".join(f"{x_of(n):.1f},{y_score(float(r['score'])):.1f}" for n, r in enumerate(runs))
    shapes.append(f'<polyline points="{points}" fill="none" stroke="{score_colour}" stroke-width="2.5"/>')
    shapes.extend(
        f'<circle cx="{x_of(n):.1f}" cy="{y_score(float(run["score"])):.1f}" r="3.5" fill="{score_colour}"/>'
        for n, run in enumerate(runs)
    )
    # No one-character labels: axe-core cannot tell whether such content is text.
    most_label = f"{most} finding{'s' if most != 1 else ''}"
    last = f"<span>{esc(_day(runs[-1]))}</span>" if len(runs) > 1 else ""
    return (
        '<div class="trend-plot" aria-hidden="true">'
        '<div class="axis axis-left"><span>100</span><span>50</span><span></span></div>'
        f'<svg class="trend-chart" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" '
        f'preserveAspectRatio="none" xmlns="http://www.w3.org/2000/svg">{"".join(shapes)}</svg>'
        f'<div class="axis axis-right"><span>{esc(most_label)}</span><span></span></div>'
        f'<div class="axis axis-x"><span>{esc(_day(runs[0]))}</span>{last}</div></div>'
    )


def _table(runs: Sequence[Mapping[str, Any]], current: str) -> list[str]:
    out = [
        "<details><summary>The figures of each run</summary>",
        "<table>",
        "<caption>Runs of this site, oldest first</caption>",
        '<thead><tr><th scope="col">Run</th><th scope="col">Started</th><th scope="col">Score</th>'
        '<th scope="col">Findings</th><th scope="col">Critical</th><th scope="col">Serious</th>'
        '<th scope="col">Moderate</th><th scope="col">Minor</th><th scope="col">Pages</th></tr></thead>',
        "<tbody>",
    ]
    for run in runs:
        found = run.get("findings") if isinstance(run.get("findings"), Mapping) else {}
        mark = " (this report)" if current and run.get("id") == current else ""
        cells = "".join(
            f"<td>{esc(found.get(impact, '-'))}</td>" for impact in ("critical", "serious", "moderate", "minor")
        )
        out.append(
            f'<tr><th scope="row"><code>{esc(run.get("id", ""))}</code>{esc(mark)}</th>'
            f"<td>{esc(str(run.get('createdAt') or '')[:19].replace('T', ' '))}</td>"
            f"<td>{float(run['score']):.1f}</td><td>{_findings(run)}</td>{cells}"
            f"<td>{esc(run.get('pages', '-'))}</td></tr>"
        )
    out.append("</tbody></table></details>")
    return out
