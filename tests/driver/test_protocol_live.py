"""Every CDP method the project calls exists in the running browser's protocol."""

from __future__ import annotations

import ast
import json
import re
import urllib.request
from pathlib import Path

from cdpdriver.protocol import util

SRC = Path(__file__).resolve().parents[2] / "src"
_METHOD = re.compile(r"^([A-Z][A-Za-z]+)\.([a-z][A-Za-z]+)$")


def _camel(name: str) -> str:
    head, *rest = name.rstrip("_").split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


_GENERATED = {m.lower(): m for m in util.all_methods()}


def _called_methods() -> set[str]:
    """CDP method names in string literals and typed-command calls under src/."""
    domains = {d.lower(): d for d in util.DOMAINS}
    found: set[str] = set()
    for path in SRC.rglob("*.py"):
        if "protocol" in path.parts:
            continue
        tree = ast.parse(path.read_text())
        aliases: dict[str, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.endswith("protocol"):
                for name in node.names:
                    module = name.name.rstrip("_").replace("_", "")
                    if module in domains:
                        aliases[name.asname or name.name] = domains[module]
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                match = _METHOD.match(node.value)
                if match and match.group(1) in util.DOMAINS:
                    found.add(node.value)
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                  and isinstance(node.func.value, ast.Name) and node.func.value.id in aliases):
                attr = node.func.attr
                if attr[:1].islower():
                    name = f"{aliases[node.func.value.id]}.{_camel(attr)}"
                    # snake_case loses acronym casing (get_partial_ax_tree): use the generated name.
                    found.add(_GENERATED.get(name.lower(), name))
    return found


def test_every_called_method_exists_in_the_live_protocol(chromium):
    with urllib.request.urlopen(f"{chromium.http_url}/json/protocol", timeout=10) as response:
        live = json.load(response)
    names: set[str] = set()
    for domain in live["domains"]:
        for item in domain.get("commands", []) + domain.get("events", []):
            names.add(f"{domain['domain']}.{item['name']}")
    called = _called_methods()
    assert len(called) > 15, called
    missing = sorted(called - names)
    assert not missing, f"methods the browser does not know: {missing}"
