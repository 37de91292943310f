"""Locate and load the vendored axe-core bundle (fetched by scripts/fetch_axe.py)."""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass
from pathlib import Path

BUNDLE_NAME = "axe.min.js"
REMEDY = "run `bash scripts/install.sh` (or `python scripts/fetch_axe.py`) to fetch the pinned axe-core"


class AxeBundleMissing(RuntimeError):
    """The axe-core bundle is not where the install script puts it."""


@dataclass(frozen=True)
class AxeBundle:
    path: Path
    source: str
    version: str


def _candidates() -> list[Path]:
    found: list[Path] = []
    if os.environ.get("A11Y_AXE_PATH"):
        found.append(Path(os.environ["A11Y_AXE_PATH"]))
    here = Path(__file__).resolve()
    for parent in here.parents:
        found.append(parent / "vendor" / "axe" / BUNDLE_NAME)
    found.append(Path.cwd() / "vendor" / "axe" / BUNDLE_NAME)
    return found


def find_bundle() -> Path:
    override = os.environ.get("A11Y_AXE_PATH")
    if override and not Path(override).is_file():
        raise AxeBundleMissing(f"A11Y_AXE_PATH {override!r} is not a file; fix it or unset it")
    for path in _candidates():
        if path.is_file():
            return path
    raise AxeBundleMissing(f"axe-core bundle ({BUNDLE_NAME}) not found; {REMEDY}")


@functools.cache
def load_bundle() -> AxeBundle:
    """Read the bundle once per process; every audit injects the same text."""
    path = find_bundle()
    source = path.read_text(encoding="utf-8")
    match = re.search(r"axe v(\d+\.\d+\.\d+)", source[:500])
    return AxeBundle(path=path, source=source, version=match.group(1) if match else "unknown")
