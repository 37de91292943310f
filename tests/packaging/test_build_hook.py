"""setup.py's build hook refuses to build without the pinned, verified axe-core bundle."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "vendor" / "axe" / "axe.lock.json"


def _setup_module():
    """The repository's setup.py, imported (it calls setup() only when run as __main__)."""
    spec = importlib.util.spec_from_file_location("a11y_setup_under_test", ROOT / "setup.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _copy_pin(dest: Path, *, with_bundle: bool) -> Path:
    """The lock and its notice (and, if asked, the fetched files) in a directory of their own."""
    dest.mkdir()
    for name in (
        "axe.lock.json",
        "NOTICE.md",
        *(["axe.min.js", "LICENSE", "LICENSE-3RD-PARTY.txt"] if with_bundle else []),
    ):
        shutil.copyfile(LOCK.parent / name, dest / name)
    return dest / "axe.lock.json"


def test_verified_files_include_the_notice(tmp_path):
    setup = _setup_module()
    lock = _copy_pin(tmp_path / "axe", with_bundle=True)
    files = setup.verified_axe_files(lock)
    assert sorted(f.name for f in files) == [
        "LICENSE",
        "LICENSE-3RD-PARTY.txt",
        "NOTICE.md",
        "axe.min.js",
    ]


def test_no_npm_to_fetch_with_stops_the_build(tmp_path, monkeypatch):
    setup = _setup_module()
    lock = _copy_pin(tmp_path / "axe", with_bundle=False)
    monkeypatch.setenv("PATH", str(tmp_path))  # no npm on it
    with pytest.raises(
        setup.AxeBundleError,
        match="cannot build without the pinned axe-core bundle: npm is not installed",
    ):
        setup.verified_axe_files(lock)


def test_an_altered_bundle_whose_tarball_does_not_match_stops_the_build(tmp_path):
    """The bundle was tampered with and the lock's integrity does not match what npm serves:
    the hook fetches again, refuses the tarball, and packages nothing."""
    setup = _setup_module()
    lock_path = _copy_pin(tmp_path / "axe", with_bundle=True)
    bundle = lock_path.parent / "axe.min.js"
    bundle.write_bytes(bundle.read_bytes() + b"\n/* altered */\n")
    lock = json.loads(lock_path.read_text(encoding="utf-8"))
    lock["integrity"] = "sha512-" + "A" * 86 + "=="
    lock_path.write_text(json.dumps(lock), encoding="utf-8")
    with pytest.raises(setup.AxeBundleError, match="integrity mismatch"):
        setup.verified_axe_files(lock_path)
    # Nothing was replaced with unverified files.
    assert bundle.read_bytes().endswith(b"/* altered */\n")
