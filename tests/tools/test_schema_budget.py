"""What an agent is sent to know our tools: small, and nothing it needs was lost.

``schema_facts.json`` holds, per tool, every required list, non-null default and enum of
its input schema as it was before the schemas were made lean (issue 16); a schema may
say less, never forget one of those. A default of null is no fact: it means "optional".
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters

FACTS = Path(__file__).with_name("schema_facts.json")
# 40,000 until issue #25's deltas: since (2 tools), if_changed (2) and snapshot (15 tools that change
# the page) added 0.7 KB to the listing, and save far more than that on every snapshot after the first.
ALL_TOOLS_BUDGET = 40_500
CORE_BUDGET = 17_600  # the smaller peer's (playwright-mcp) whole tools/list


def schema_facts(schema: dict[str, Any]) -> list[list[Any]]:
    """Every required list, non-null default and enum, keyed by field path, however nested.

    ``$ref``, ``anyOf``/``oneOf``/``allOf`` are walked through, so inlining a definition or
    dropping a null alternative changes no path; ``const`` counts as an enum of one.
    """
    defs = schema.get("$defs", {})
    facts: list[list[Any]] = []

    def walk(node: Any, path: str) -> None:
        if not isinstance(node, dict):
            return
        if "$ref" in node:
            walk(defs[node["$ref"].rsplit("/", 1)[-1]], path)
        for key in ("anyOf", "oneOf", "allOf"):
            for alternative in node.get(key, []):
                walk(alternative, path)
        if node.get("required"):
            facts.append([path, "required", sorted(node["required"])])
        if node.get("default") is not None:
            facts.append([path, "default", node["default"]])
        if "enum" in node or "const" in node:
            facts.append([path, "enum", sorted(map(str, node.get("enum", [node.get("const")])))])
        for name, sub in (node.get("properties") or {}).items():
            walk(sub, f"{path}.{name}")
        if isinstance(node.get("items"), dict):
            walk(node["items"], f"{path}[]")
        if isinstance(node.get("additionalProperties"), dict):
            walk(node["additionalProperties"], f"{path}{{}}")

    walk(schema, "")
    unique = {json.dumps(f, sort_keys=True) for f in facts}
    return sorted(json.loads(f) for f in unique)


async def _listed(*server_args: str) -> list[dict[str, Any]]:
    params = StdioServerParameters(command=sys.executable, args=["-m", "a11y", "mcp", *server_args])
    async with Client(params) as client:
        tools = (await client.list_tools()).tools
    return [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools]


def _sent_bytes(entries: list[dict[str, Any]]) -> int:
    """What an agent is sent per tool, as compact JSON: name, description, input schema."""
    sent = [{k: e[k] for k in ("name", "description", "inputSchema") if k in e} for e in entries]
    return len(json.dumps(sent, ensure_ascii=False, separators=(",", ":")).encode())


async def test_all_tools_fit_the_budget():
    entries = await _listed()
    assert len(entries) == 169
    assert _sent_bytes(entries) <= ALL_TOOLS_BUDGET


async def test_core_profile_fits_the_smaller_peers_list():
    entries = await _listed("--profile", "core")
    assert 10 <= len(entries) < 169
    assert _sent_bytes(entries) <= CORE_BUDGET


async def test_no_required_field_default_or_enum_was_lost(mcp):
    expected = json.loads(FACTS.read_text())
    listed = {t.name: t.input_schema for t in (await mcp.client.list_tools()).tools}
    assert set(listed) == set(expected)
    for name, facts in expected.items():
        present = {json.dumps(f, sort_keys=True) for f in schema_facts(listed[name])}
        lost = [f for f in facts if json.dumps(f, sort_keys=True) not in present]
        assert not lost, f"{name} lost {lost}"


def test_list_tools_prints_every_tool():
    out = subprocess.run([sys.executable, "-m", "a11y", "mcp", "--list-tools"],
                         capture_output=True, text=True, check=True, timeout=60)
    assert json.loads(out.stdout)["total"] == 169
