"""The layering of ``src/`` as a test: which of our packages may import which.

The floors (README, ``docs/architecture.md``): ``cdpdriver`` (1) knows nothing of ours;
``audit`` and ``tools`` (2) build on it, ``tools`` may use ``audit`` but not the reverse;
``jobs`` (3) runs audits, not tools; ``a11y`` (4) is the front ends and may import anything.
An upward import would tie a lower floor to a front end or a sibling it must stay usable
without, so every import counts: absolute or relative (resolved to its package), at module
level, inside functions or under ``if TYPE_CHECKING:``, and ``importlib.import_module`` /
``__import__`` with a literal name.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"

# For each of our top-level packages, the packages of ours it must never import, and why.
# A new package in src/ must be added here (test_every_package_has_a_place_in_the_contract).
FORBIDDEN: dict[str, tuple[frozenset[str], str]] = {
    "cdpdriver": (
        frozenset({"audit", "tools", "jobs", "a11y"}),
        "cdpdriver (floor 1) imports nothing of ours",
    ),
    "audit": (
        frozenset({"tools", "jobs", "a11y"}),
        "audit (floor 2) never imports tools, jobs or a11y",
    ),
    "tools": (
        frozenset({"jobs", "a11y"}),
        "tools (floor 2) never imports jobs or a11y",
    ),
    "jobs": (
        frozenset({"tools", "a11y"}),
        "jobs (floor 3) never imports tools or a11y",
    ),
    "a11y": (frozenset(), "a11y (floor 4) may import every floor below it"),
}


@dataclass(frozen=True)
class Violation:
    path: str
    line: int
    importer: str
    imported: str
    rule: str

    def __str__(self) -> str:
        return (
            f"{self.path}:{self.line}: {self.importer} imports {self.imported!r}; rule: {self.rule}"
        )


def _package_parts(module: str, is_package: bool) -> list[str]:
    """The package a relative import is resolved against: the module itself for __init__."""
    parts = module.split(".")
    return parts if is_package else parts[:-1]


def _resolve_relative(level: int, target: str | None, module: str, is_package: bool) -> str | None:
    """The absolute name of ``from <level dots><target> import …``; None when it climbs
    above the top-level package (an error at run time, and a way around the contract)."""
    base = _package_parts(module, is_package)
    keep = len(base) - (level - 1)
    if keep <= 0:
        return None
    return ".".join(base[:keep] + ([target] if target else []))


def _literal_import_call(node: ast.Call) -> str | None:
    """The module named by ``import_module("x")`` / ``importlib.import_module("x")`` /
    ``__import__("x")`` with a literal first argument, else None."""
    func = node.func
    if isinstance(func, ast.Name):
        name = func.id
    elif isinstance(func, ast.Attribute):
        name = func.attr
    else:
        return None
    if name not in {"import_module", "__import__"} or not node.args:
        return None
    first = node.args[0]
    if isinstance(first, ast.Constant) and isinstance(first.value, str):
        return first.value
    return None


def imported_modules(tree: ast.AST, module: str, is_package: bool) -> list[tuple[int, str | None]]:
    """Every module the tree imports, in line order, as (line, absolute dotted name); the
    name is None for a relative import that climbs out of the top-level package."""
    found: list[tuple[int, str | None]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                found.append((node.lineno, node.module))
            else:
                found.append(
                    (node.lineno, _resolve_relative(node.level, node.module, module, is_package))
                )
        elif isinstance(node, ast.Call):
            name = _literal_import_call(node)
            if name is None:
                continue
            if name.startswith("."):
                dots = len(name) - len(name.lstrip("."))
                found.append(
                    (node.lineno, _resolve_relative(dots, name[dots:] or None, module, is_package))
                )
            else:
                found.append((node.lineno, name))
    return sorted(found, key=lambda item: item[0])


def check_source(source: str, path: str, module: str, is_package: bool = False) -> list[Violation]:
    """The contract's violations in one module's source (``module`` is its dotted name)."""
    importer = module.split(".")[0]
    forbidden, rule = FORBIDDEN.get(importer, (frozenset(), ""))
    violations = []
    for line, name in imported_modules(ast.parse(source, filename=path), module, is_package):
        if name is None:
            violations.append(
                Violation(
                    path,
                    line,
                    importer,
                    "<beyond the top-level package>",
                    "a relative import stays inside its own top-level package",
                )
            )
        elif name.split(".")[0] in forbidden:
            violations.append(Violation(path, line, importer, name, rule))
    return violations


def _module_name(path: Path) -> tuple[str, bool]:
    relative = path.relative_to(SRC).with_suffix("")
    parts = list(relative.parts)
    is_package = parts[-1] == "__init__"
    if is_package:
        parts.pop()
    return ".".join(parts), is_package


def _our_packages() -> list[str]:
    return sorted(p.parent.name for p in SRC.glob("*/__init__.py"))


def test_imports_follow_the_floors():
    files = [p for package in _our_packages() for p in sorted((SRC / package).rglob("*.py"))]
    assert len(files) > 10, f"found only {len(files)} modules under {SRC}; is the layout changed?"
    violations = []
    for path in files:
        module, is_package = _module_name(path)
        source = path.read_text(encoding="utf-8")
        violations += check_source(source, str(path.relative_to(SRC.parent)), module, is_package)
    assert not violations, "imports break the layering:\n" + "\n".join(map(str, violations))


def test_every_package_has_a_place_in_the_contract():
    unplaced = sorted(set(_our_packages()) - set(FORBIDDEN))
    assert not unplaced, (
        f"src/ has packages the layering contract does not place: {unplaced}; add each to "
        "FORBIDDEN in tests/test_layering.py with the packages it must never import"
    )


_SYNTHETIC = """\
from __future__ import annotations
from typing import TYPE_CHECKING
import importlib
import audit.engine
from tools import registry
from . import session
from .errors import CDPError
from cdpdriver.protocol import page
import tools_extra

if TYPE_CHECKING:
    from a11y.server import App

def later():
    import jobs.queue
    return importlib.import_module("a11y.cli")

from ... import anything
"""


def test_checker_catches_each_kind_of_violation():
    violations = check_source(_SYNTHETIC, "cdpdriver/sub/fake.py", "cdpdriver.sub.fake")
    assert [(v.line, v.imported) for v in violations] == [
        (4, "audit.engine"),
        (5, "tools"),
        (12, "a11y.server"),
        (15, "jobs.queue"),
        (16, "a11y.cli"),
        (18, "<beyond the top-level package>"),
    ]
    assert all(v.importer == "cdpdriver" for v in violations)
    assert "cdpdriver (floor 1) imports nothing of ours" in str(violations[0])
    assert str(violations[0]).startswith("cdpdriver/sub/fake.py:4: ")


def test_checker_resolves_relative_imports_to_their_package():
    # Two levels up from audit.llm.provider is audit, not a sibling top-level package.
    assert _resolve_relative(2, "engine", "audit.llm.provider", False) == "audit.engine"
    assert _resolve_relative(1, None, "audit.llm", True) == "audit.llm"
    assert _resolve_relative(3, "tools", "audit.llm.provider", False) is None
    # tools may import audit; the same lines in audit would break its rule.
    allowed = "from audit import engine\nimport cdpdriver\n"
    assert check_source(allowed, "tools/x.py", "tools.x") == []
    upward = "from tools.registry import tool\n"
    [violation] = check_source(upward, "audit/x.py", "audit.x")
    assert (violation.line, violation.imported, violation.rule) == (
        1,
        "tools.registry",
        "audit (floor 2) never imports tools, jobs or a11y",
    )
