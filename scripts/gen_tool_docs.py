"""Write docs/tools.md, the tool reference, and src/tools/tool_list.json, the tools/list the
server sends without building a schema, from the registry (the single source).

Run: .venv/bin/python scripts/gen_tool_docs.py [--check]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from tools.catalog import LISTING, PROFILES, catalog, listing_text, load, selected, selection  # noqa: E402
from tools.registry import EFFECTS, Tool, mcp_annotations  # noqa: E402

OUT = ROOT / "docs" / "tools.md"


def _type(spec: dict[str, Any], defs: dict[str, Any]) -> str:
    if "$ref" in spec:
        return spec["$ref"].rsplit("/", 1)[-1]
    if "enum" in spec:
        return " \\| ".join(f"`{v}`" for v in spec["enum"])
    if "const" in spec:
        return f"`{spec['const']}`"
    if "anyOf" in spec:
        return " or ".join(_type(s, defs) for s in spec["anyOf"] if s.get("type") != "null") or "null"
    kind = spec.get("type") or _json_type(spec.get("default"))
    if kind == "array":
        return f"array of {_type(spec.get('items', {}), defs)}"
    if kind == "object" and isinstance(spec.get("additionalProperties"), dict):
        return f"object of {_type(spec['additionalProperties'], defs)}"
    return str(kind)


def _json_type(value: Any) -> str:
    """A lean schema leaves out the type its default already shows."""
    for python, name in ((bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"),
                         (list, "array"), (dict, "object")):
        if isinstance(value, python):
            return name
    return "any"


def _fields(schema: dict[str, Any]) -> list[str]:
    props = schema.get("properties") or {}
    if not props:
        return ["_none_"]
    required = set(schema.get("required") or [])
    defs = schema.get("$defs") or {}
    rows = ["| field | type | required | default | description |", "|---|---|---|---|---|"]
    for name, spec in props.items():
        default = spec.get("default", "")
        default = f"`{json.dumps(default)}`" if "default" in spec and default is not None else ""
        description = str(spec.get("description", "")).replace("|", "\\|").replace("\n", " ")
        rows.append(f"| `{name}` | {_type(spec, defs)} | {'yes' if name in required else ''} | {default} | {description} |")
    return rows


def _profiles() -> list[str]:
    """What each ``--profile`` exposes (every profile but ``all`` is ``core`` plus its own)."""
    lines = ["## Profiles", "", "`python -m a11y mcp --profile NAME[,NAME…]` exposes only these tools "
             "(combined with `--namespaces` and `--tools`, the union).", "",
             "| profile | tools | adds |", "|---|---|---|"]
    for name, profile in PROFILES.items():
        tools = selected(*selection({name}, None, None))
        adds = sorted([f"`{ns}_`" for ns in profile.namespaces]) + sorted(f"`{t}`" for t in profile.tools)
        lines.append(f"| `{name}` | {len(tools)} | {profile.description}: {', '.join(adds) or 'everything'} |")
    return [*lines, ""]


def _contexts() -> list[str]:
    """How a client of a Streamable HTTP server names its browser context (``tools.contexts``)."""
    return ["## Browser contexts over HTTP", "",
            "On stdio the server has one client and one browser context. Over Streamable HTTP each "
            "client works in a browser context of its own (tabs, cookies, storage, routes, recordings, "
            "downloads under `contexts/<context>/downloads/`): a client with an MCP session (2025 "
            "revisions) has one for its session. A 2026-07-28 client has no session: `browser_launch` "
            "opens a context and returns its handle as `context`, and every tool below also takes an "
            "optional `context` (string) naming it, listed only to such clients; without it a call acts "
            "on the server's shared `default` context. `browser_quit` closes the caller's context only. "
            "Errors: `invalid_context` (a handle that is closed, by `browser_quit` or after "
            "`--context-idle-timeout` seconds without a call, or unknown), `overloaded` (past "
            "`--max-contexts`).", ""]


def _results() -> list[str]:
    """What a result's text block holds, and how a client that reads structured content gets
    the JSON once (``a11y.result_budget``)."""
    return ["## Results: text and structured content", "",
            "A successful result carries its data as `structuredContent` (matching the tool's output "
            "schema) and, for clients that hand the model only the text blocks, the same JSON in its "
            "first text block, as the MCP specification asks since 2025-06-18 (for backwards "
            "compatibility); a result over 16,000 characters has a note and a preview there instead. "
            "Screenshots follow as image blocks. An error has no structured content: its text block "
            "is the JSON `{error: {code, message}}`, always.", "",
            "Neither protocol era (2025-11-25, 2026-07-28) gives a client a capability to say that it "
            "reads `structuredContent`, so the JSON is sent "
            "twice by default in either era. It is sent once, the text block being one line naming the "
            "fields the structured content holds, to a client that advertises the extension "
            "`a11y/structured-content` in its capabilities (`extensions`; in the handshake era also "
            "`experimental`; with the Python SDK, `Client(..., extensions=[advertise("
            "\"a11y/structured-content\")])`), and to every client of a server started with "
            "`--structured-only`.", ""]


def _tasks_and_files(tools: list[Tool]) -> list[str]:
    """Long tools as MCP tasks, their progress, and files as resources (``a11y.mcp_tasks``,
    ``a11y.mcp_files``)."""
    long = ", ".join(f"`{t.name}`" for t in tools if t.long)
    return ["## Tasks, progress and files", "",
            f"Tools that can run past a few seconds say so in their declaration (**long** below): {long}. "
            "For a client that declares the tasks extension `io.modelcontextprotocol/tasks` in a "
            "2026-07-28 request's capabilities (the server announces it under `extensions`), such a "
            "call answers at once with a task (`resultType: \"task\"`, `taskId`, `status: "
            "\"working\"`, `pollIntervalMs`, `ttlMs`): poll `tasks/get` until `status` is `completed` "
            "(the tool's result is its `result`), `failed` (`error`) or `cancelled`; `tasks/cancel` "
            "stops the call and its browser work; `statusMessage` says how far it got. Tasks are kept "
            "an hour; one made over an MCP session is that session's only. Every other client, and "
            "every 2025-era client (the SDK has no task runtime for the 2025-11-25 design), gets an "
            "ordinary result. A long call whose request carries a `progressToken` sends "
            "`notifications/progress` as it goes (the quality audit: each phase, of how many).", "",
            "Every file a call writes (a screenshot or PDF saved to a path, traces, videos, heap "
            "snapshots, coverage, quality reports, saved states) also comes back as a `resource_link` "
            "block after the result (`uri`, `name`: the path in the output directory, `mimeType`, "
            "`size`). Its URI is `a11y-file://<context>/<path>` (`default` on stdio), readable with "
            "`resources/read` (text for text and JSON, else a base64 blob); `resources/list` lists the "
            "files the caller's context wrote (its last 500). A read is refused (JSON-RPC -32602, the "
            "reason as `data.code`) for another scheme (`unknown_scheme`), a path leaving the output "
            "directory by `..` or a symlink (`outside_output`), a context that is closed or another "
            "MCP session's (`other_context`), a file that is not there (`not_found`) or over 100 MB "
            "(`too_large`). Over HTTP a context reads only the files its own calls wrote; on stdio "
            "any file in the output directory.", ""]


def _order_and_effects(tools: list[Tool]) -> list[str]:
    """The listing's fixed order and what each ``effect`` word means as MCP annotations."""
    lines = ["## Order and annotations", "",
             "tools/list always lists the tools in this document's order, the spec catalog's: namespace by "
             "namespace in alphabetical order, then by name. Over stdio and Streamable HTTP, in either "
             "protocol era, with or without the `context` argument, under any profile and in "
             "`--list-tools` the order is the same; a selection only leaves tools out.", "",
             "Every tool carries all four MCP tool annotations, derived from the one word its declaration "
             "names for what a call may do (with any arguments) to the browser, the server's records and "
             "the output directory. `openWorldHint` is true when a call may make the browser reach hosts "
             "the arguments or a page choose: it navigates or fetches, runs code the caller wrote, or "
             "delivers input whose default action follows a link or submits a form.", "",
             "| effect | readOnlyHint | destructiveHint | idempotentHint | tools | openWorldHint true |",
             "|---|---|---|---|---|---|"]
    for effect in EFFECTS:
        hints = mcp_annotations(effect, False)  # type: ignore[arg-type]
        chosen = [t for t in tools if t.effect == effect]
        lines.append(f"| `{effect}` | {str(hints['readOnlyHint']).lower()} | {str(hints['destructiveHint']).lower()} "
                     f"| {str(hints['idempotentHint']).lower()} | {len(chosen)} | {sum(t.open_world for t in chosen)} |")
    return [*lines, "", "- `reads`: changes nothing.",
            "- `sets`: changes something to what the arguments say; a repeat changes nothing more.",
            "- `acts`: each call does something again (a click, a tab, a check in the report, a new file).",
            "- `deletes`: may delete or overwrite what outlives the page (cookies, web storage, saved "
            "states, recorded steps and checks, buffered messages, extensions, the browser) or runs "
            "the caller's code, which may; a repeat deletes nothing more.",
            "- `destroys`: as `deletes`, and each call may delete more (the current tab).", ""]


def _hints(t: Tool) -> str:
    """One line per tool: its effect word and the four annotations tools/list sends."""
    hints = " · ".join(f"{hint} {str(value).lower()}" for hint, value in t.annotations.items())
    return f"**Effect:** `{t.effect}` · {hints}" + (" · **long** (a task when asked)" if t.long else "")


def render(tools: list[Tool]) -> str:
    summary = catalog(tools)
    lines = [
        "# MCP tool reference",
        "",
        "Generated by `scripts/gen_tool_docs.py` from the tool registry; do not edit by hand.",
        "",
        f"{summary['total']} tools in {len(summary['categories'])} namespaces.",
        "",
        "| namespace | tools |",
        "|---|---|",
        *[f"| `{ns}_` | {count} |" for ns, count in summary["categories"].items()],
        "",
        *_order_and_effects(tools),
        *_profiles(),
        *_contexts(),
        *_results(),
        *_tasks_and_files(tools),
    ]
    current = None
    for t in tools:
        if t.namespace != current:
            current = t.namespace
            lines += [f"## {current}_", ""]
        lines += [f"### `{t.name}`", "", t.description, "", _hints(t), "", "**Input**", "", *_fields(t.input_schema), "",
                  "**Output**", "", *_fields(t.output_schema), ""]
    return "\n".join(lines).rstrip() + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="exit 1 when docs/tools.md or tool_list.json is stale")
    args = parser.parse_args()
    outputs = {OUT: render(load()), LISTING: listing_text(load())}
    if args.check:
        stale = [path for path, text in outputs.items() if (path.read_text() if path.exists() else "") != text]
        for path in stale:
            sys.stderr.write(f"{path.relative_to(ROOT)} is stale: run scripts/gen_tool_docs.py\n")
        return 1 if stale else 0
    OUT.parent.mkdir(exist_ok=True)
    for path, text in outputs.items():
        path.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
