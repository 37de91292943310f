"""What knowing our tools costs an agent: the ``tools/list`` entries per profile, in KB and tokens.

Run: .venv/bin/python scripts/bench/mcp_tokens.py [--profile core ...] [--json]
Each profile's server is spawned over stdio and listed with the official MCP Python client;
what counts is what an agent is sent per tool (name, description, input schema) as compact
JSON. Output schemas are listed apart: clients validate results with them, models rarely
see them. Tokens are approximated as bytes / 4.
"""

from __future__ import annotations

import argparse
import json
import sys

import trio
from mcp import Client, StdioServerParameters

PROFILES = ("core", "forms", "network", "storage", "testing", "devtools", "all")


def _compact(value: object) -> int:
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())


async def measure(server_args: list[str]) -> dict[str, int]:
    """Sizes of one server's tools/list, as the client receives it."""
    params = StdioServerParameters(command=sys.executable, args=["-m", "a11y", "mcp", *server_args])
    async with Client(params) as client:
        listed = (await client.list_tools()).tools
    entries = [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in listed]
    sent = [{k: e[k] for k in ("name", "description", "inputSchema") if k in e} for e in entries]
    return {
        "tools": len(listed),
        "bytes": _compact(sent),
        "output_schema_bytes": _compact([e.get("outputSchema") for e in entries]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--profile", action="append", choices=PROFILES, help="default: every profile")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    results = {p: trio.run(measure, ["--profile", p]) for p in args.profile or PROFILES}
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print("| profile | tools | tools/list | ~tokens | output schemas |\n|---|---:|---:|---:|---:|")
    for name, r in results.items():
        print(f"| `{name}` | {r['tools']} | {r['bytes'] / 1000:.1f} KB | {r['bytes'] // 4:,} "
              f"| {r['output_schema_bytes'] / 1000:.1f} KB |")


if __name__ == "__main__":
    main()
