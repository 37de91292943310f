"""Lint gates: ESLint over the page-side scripts, ruff over the Python, and the link
between the two (every ``load_script`` names a file that exists; every file is loaded).

The linters are part of the set-up (``scripts/install.sh``), so a missing one fails the
test instead of skipping it: a skipped gate reads as a passed one.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
LINT = ROOT / "scripts" / "lint"
ESLINT = LINT / "node_modules" / ".bin" / "eslint"
ESLINT_CONFIG = LINT / "eslint.config.js"
INSTALL = "run `bash scripts/install.sh`"
LINT_TIMEOUT_S = 300

SCRIPT_NAME_RE = re.compile(r"^[a-z][a-z0-9_]*\.js$")
# The lines a script may open with before its one-line `//` description: ESLint
# directives such as `/* global axe */`.
DIRECTIVE_RE = re.compile(r"^/\*\s*(?:global|globals|eslint|exported)\b.*\*/$")


def _page_scripts() -> list[Path]:
    return sorted(SRC.glob("**/js/*.js"))


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT))


def _run(argv: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv, cwd=ROOT, capture_output=True, text=True, timeout=LINT_TIMEOUT_S, check=False
    )


def test_eslint_passes_on_page_scripts():
    if not ESLINT.exists():
        pytest.fail(f"ESLint is not installed in {_shown(LINT)}/node_modules; {INSTALL}")
    pinned = json.loads((LINT / "package.json").read_text())["devDependencies"]["eslint"]
    installed = json.loads((LINT / "node_modules" / "eslint" / "package.json").read_text())
    if installed["version"] != pinned:
        pytest.fail(f"ESLint {installed['version']} is installed, {pinned} is pinned; {INSTALL}")
    scripts = _page_scripts()
    assert scripts, "no page-side scripts found under src/**/js/; has the layout changed?"
    result = _run(
        [
            str(ESLINT),
            "--config",
            str(ESLINT_CONFIG),
            "--max-warnings",
            "0",
            *(_shown(path) for path in scripts),
        ]
    )
    assert result.returncode == 0, f"ESLint found problems:\n{result.stdout}{result.stderr}"


def test_ruff_passes():
    if importlib.util.find_spec("ruff") is None:
        pytest.fail(f"ruff is not installed in this interpreter ({sys.executable}); {INSTALL}")
    result = _run(
        [
            sys.executable,
            "-m",
            "ruff",
            "check",
            "--output-format",
            "concise",
            "src",
            "tests",
            "scripts",
        ]
    )
    assert result.returncode == 0, f"ruff found problems:\n{result.stdout}{result.stderr}"


def _dotted_package(path: Path) -> str:
    """The package a module belongs to (its own name for __init__.py)."""
    return ".".join(path.relative_to(SRC).parent.parts)


def _literal(node: ast.expr | None, path: Path) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name) and node.id == "__package__":
        return _dotted_package(path)
    return None


def _load_script_calls() -> tuple[dict[Path, list[str]], list[str]]:
    """Each script file some ``load_script(package, name)`` call names, with the calls
    (file:line) naming it; and the calls whose arguments are not literals, which no test
    could follow (``__package__`` counts as a literal)."""
    named: dict[Path, list[str]] = {}
    opaque: list[str] = []
    for path in sorted(SRC.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        if "load_script" not in source:
            continue
        for node in ast.walk(ast.parse(source, filename=str(path))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if called != "load_script":
                continue
            where = f"{_shown(path)}:{node.lineno}"
            keywords = {kw.arg: kw.value for kw in node.keywords}
            positional = [*node.args, None, None]
            package = _literal(positional[0] or keywords.get("package"), path)
            name = _literal(positional[1] or keywords.get("name"), path)
            if package is None or name is None:
                opaque.append(where)
                continue
            filename = name if name.endswith(".js") else f"{name}.js"
            script = SRC.joinpath(*package.split("."), "js", filename)
            named.setdefault(script, []).append(where)
    return named, opaque


def test_every_load_script_call_names_an_existing_file():
    named, opaque = _load_script_calls()
    assert not opaque, (
        "load_script calls must name the package and the script with string literals "
        "(or __package__), so this test can check them:\n" + "\n".join(opaque)
    )
    missing = [
        f"{where}: {_shown(script)} does not exist"
        for script, calls in sorted(named.items())
        if not script.is_file()
        for where in calls
    ]
    assert not missing, "load_script names scripts that do not exist:\n" + "\n".join(missing)


def test_every_page_script_is_loaded():
    named, _ = _load_script_calls()
    orphans = [_shown(path) for path in _page_scripts() if path not in named]
    assert not orphans, (
        "scripts no load_script(package, name) call in src/ loads (delete them, or load "
        "them by name):\n" + "\n".join(orphans)
    )


def test_page_scripts_follow_the_file_convention():
    """snake_case names, and a one-line `//` description first (after ESLint directives)."""
    problems = []
    for path in _page_scripts():
        if not SCRIPT_NAME_RE.match(path.name):
            problems.append(f"{_shown(path)}: the file name is not snake_case")
        lines = [line.strip() for line in path.read_text(encoding="utf-8").splitlines()]
        opening = next((line for line in lines if line and not DIRECTIVE_RE.match(line)), "")
        if not opening.startswith("//"):
            problems.append(
                f"{_shown(path)}: does not start with a `//` line saying whether it is a "
                "function expression or a whole script, and what it returns"
            )
    assert not problems, "page scripts break the convention:\n" + "\n".join(problems)
