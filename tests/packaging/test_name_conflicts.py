"""``a11y doctor`` names another installed distribution that owns one of our top-level names."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from a11y.name_conflicts import TOP_LEVEL_NAMES, describe, foreign_owners

ROOT = Path(__file__).resolve().parents[2]


def _install_distribution(site: Path, name: str, top_level: str) -> None:
    """A distribution's metadata as pip leaves it: a dist-info with METADATA and top_level.txt."""
    info = site / f"{name}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n", encoding="utf-8"
    )
    (info / "top_level.txt").write_text(f"{top_level}\n", encoding="utf-8")


def test_our_own_distribution_is_no_clash():
    assert foreign_owners({name: ["a11y"] for name in TOP_LEVEL_NAMES}) == {}
    assert describe({}) == []


def test_a_neighbour_owning_tools_is_named(tmp_path, monkeypatch):
    _install_distribution(tmp_path, "tools", "tools")
    _install_distribution(tmp_path, "unrelated", "unrelated")
    monkeypatch.syspath_prepend(str(tmp_path))
    clashes = foreign_owners()
    assert clashes == {"tools": ["tools"]}
    lines = describe(clashes)
    assert "`tools` is also installed by tools" in lines[0]
    assert "pipx install" in lines[-1] and "uv tool install" in lines[-1]


def test_doctor_prints_the_warning(tmp_path):
    _install_distribution(tmp_path, "audit", "audit")
    # No browser to launch keeps this quick; the warning does not depend on it.
    env = {
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": f"{ROOT / 'src'}:{tmp_path}",
        "CHROME_PATH": "/nonexistent/chrome",
    }
    done = subprocess.run(
        [sys.executable, "-m", "a11y", "doctor"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert "warning: the top-level package `audit` is also installed by audit" in done.stdout, (
        done.stdout
    )
