"""Turn V8 precise coverage and CSS rule usage into used / unused byte counts.

V8 reports, per function, a list of ranges with execution counts: the first
range spans the function, later ones are blocks inside it, and ranges are
either nested or disjoint. The count of a character is the count of the
innermost range that contains it. ``flatten`` resolves the nesting into
disjoint segments; everything else is sums over them.

Offsets are in characters of the source (UTF-16 code units), which is what
the browser reports; they are called bytes in the output, as DevTools does.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

Range = tuple[int, int, int]  # start, end, count


def flatten(ranges: Iterable[Range]) -> list[Range]:
    """Disjoint (start, end, count) segments, each carrying its innermost range's count.

    Adjacent segments that are both used (or both unused) are merged.
    """
    ordered = sorted(ranges, key=lambda r: (r[0], -r[1]))
    segments: list[Range] = []
    stack: list[tuple[int, int]] = []  # (end, count) of the ranges containing the cursor, innermost last
    cursor = 0

    def emit(upto: int) -> None:
        nonlocal cursor
        if upto <= cursor:
            return
        if stack:
            count = stack[-1][1]
            if segments and segments[-1][1] == cursor and (segments[-1][2] > 0) == (count > 0):
                start, _, previous = segments.pop()
                segments.append((start, upto, max(previous, count)))
            else:
                segments.append((cursor, upto, count))
        cursor = upto

    for start, end, count in ordered:
        while stack and stack[-1][0] <= start:
            emit(stack[-1][0])
            stack.pop()
        emit(start)
        stack.append((end, count))
    while stack:
        emit(stack[-1][0])
        stack.pop()
    return segments


def script_usage(functions: list[dict[str, Any]], source_length: int | None = None) -> dict[str, Any]:
    """Used and unused bytes of one script from its coverage functions."""
    ranges = [(int(r["startOffset"]), int(r["endOffset"]), int(r.get("count", 0)))
              for f in functions for r in f.get("ranges", [])]
    segments = flatten(ranges)
    total = source_length if source_length is not None else max((r[1] for r in ranges), default=0)
    used = sum(end - start for start, end, count in segments if count > 0)
    unused = [{"start": start, "end": end} for start, end, count in segments if count == 0]
    return {"used_bytes": used, "total_bytes": total, "unused_ranges": unused}


def function_view(function: dict[str, Any], detailed: bool) -> dict[str, Any]:
    ranges = function.get("ranges") or [{}]
    whole = ranges[0]
    view: dict[str, Any] = {
        "name": function.get("functionName") or "(anonymous)",
        "start": whole.get("startOffset", 0), "end": whole.get("endOffset", 0), "count": whole.get("count", 0),
    }
    if detailed and len(ranges) > 1:
        view["blocks"] = [{"start": r["startOffset"], "end": r["endOffset"], "count": r.get("count", 0)}
                          for r in ranges[1:]]
    return view


def rule_snippet(text: str, start: int, end: int, limit: int = 160) -> str:
    """The selector (or at-rule prelude) of a rule, for a person to recognise it."""
    body = text[start:end]
    head = body.split("{", 1)[0].strip() or body.strip()
    return " ".join(head.split())[:limit]


# At-rules whose block holds style rules (their inner rules are what the browser tracks).
_GROUPING = ("@media", "@supports", "@layer", "@container", "@scope", "@document", "@starting-style")


def _skip(text: str, i: int) -> int:
    """Past a comment or a string starting at i (or i itself)."""
    if text.startswith("/*", i):
        end = text.find("*/", i + 2)
        return len(text) if end < 0 else end + 2
    if text[i] in "\"'":
        quote, j = text[i], i + 1
        while j < len(text) and text[j] != quote:
            j += 2 if text[j] == "\\" else 1
        return j + 1
    return i


def _block_end(text: str, open_brace: int) -> int:
    """Index just past the brace that closes the block opened at ``open_brace``."""
    depth, i = 0, open_brace
    while i < len(text):
        nxt = _skip(text, i)
        if nxt != i:
            i = nxt
            continue
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return len(text)


def style_rules(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """(start, end) of every style rule, looking inside @media, @supports, @layer and the like.

    Spans run from the selector's first character to just past its closing brace, which is
    how the browser reports rule usage.
    """
    end = len(text) if end is None else end
    rules: list[tuple[int, int]] = []
    i = start
    while i < end:
        nxt = _skip(text, i)
        if nxt != i or text[i].isspace() or text[i] in ";}":
            i = max(nxt, i + 1) if nxt == i else nxt
            continue
        brace, semicolon, j = -1, -1, i
        while j < end:
            k = _skip(text, j)
            if k != j:
                j = k
                continue
            if text[j] == "{":
                brace = j
                break
            if text[j] == ";":
                semicolon = j
                break
            j += 1
        if brace < 0:  # @import …; @charset …; or trailing junk
            i = (semicolon + 1) if semicolon >= 0 else end
            continue
        close = _block_end(text, brace)
        prelude = text[i:brace].strip().lower()
        if prelude.startswith(_GROUPING):
            rules += style_rules(text, brace + 1, close - 1)
        elif not prelude.startswith("@"):
            rules.append((i, close))
        i = close
    return rules


def stylesheet_usage(used_rules: list[dict[str, Any]], text: str | None, length: int | None) -> dict[str, Any]:
    """Used / unused bytes of one stylesheet: the browser reports the used rules, the text gives the rest."""
    used_spans = {(int(r["startOffset"]), int(r["endOffset"])) for r in used_rules if r.get("used", True)}
    used_starts = {start for start, _ in used_spans}
    unused_rules = []
    if text is not None:
        for start, end in style_rules(text):
            if start not in used_starts:
                unused_rules.append({"start": start, "end": end, "rule": rule_snippet(text, start, end)})
    used = sum(end - start for start, end in used_spans)
    unused = sum(r["end"] - r["start"] for r in unused_rules)
    total = len(text) if text is not None else (length if length is not None else used + unused)
    return {"used_bytes": used, "unused_bytes": unused, "total_bytes": total, "unused_rules": unused_rules}


def percent(used: int, total: int) -> float:
    return round(100.0 * used / total, 1) if total else 100.0
