"""Build hook: the wheel and the sdist carry the pinned axe-core bundle.

Every audit injects axe-core, so a wheel without it is useless; the bundle is not committed
(``vendor/axe/axe.lock.json`` pins it). Building therefore runs ``scripts/fetch_npm.py``'s
own functions: the files in ``vendor/axe/`` are checked against the lock's sha256s and, when
missing or altered, fetched with ``npm pack`` and checked against the pinned sha512 integrity
first. Any failure stops the build with the reason; nothing unverified is ever packaged.

- ``sdist`` verifies (or fetches) ``vendor/axe/`` before collecting files, so the archive
  carries the bundle and a wheel built from it needs neither npm nor the network.
- ``build_py`` copies the verified files, with their MPL-2.0 notice and licences, into
  ``audit/vendor/axe/`` of the built package, where ``audit.axe_bundle`` looks first.
- An editable install (the contributors' ``.venv``) copies nothing: the checkout's own
  ``vendor/axe/`` is found from the source tree, and ``scripts/install.sh`` fetches it after
  installing, so ``pip install -e`` never needs npm.

Everything else about the distribution is declared in ``pyproject.toml``.
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path
from types import ModuleType

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist
from setuptools.errors import BaseError

HERE = Path(__file__).resolve().parent
AXE_LOCK = HERE / "vendor" / "axe" / "axe.lock.json"
# Shipped beside the bundle: the notice saying what it is and where its source is.
AXE_NOTICE = "NOTICE.md"
# Inside the built package, relative to the build directory.
PACKAGED_AXE_DIR = Path("audit") / "vendor" / "axe"


class AxeBundleError(BaseError):
    """The pinned axe-core bundle could not be fetched or does not match its lock."""


def _fetch_npm() -> ModuleType:
    """``scripts/fetch_npm.py`` loaded by path: it is a script, not part of the package."""
    path = HERE / "scripts" / "fetch_npm.py"
    spec = importlib.util.spec_from_file_location("a11y_build_fetch_npm", path)
    if spec is None or spec.loader is None:
        raise AxeBundleError(f"cannot load {path}; the source tree is incomplete")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def verified_axe_files(lock_path: Path = AXE_LOCK) -> list[Path]:
    """The lock's files beside it (``vendor/axe/``), fetched first if missing or altered,
    each matching its pinned sha256; plus the notice. Raises :class:`AxeBundleError`."""
    fetch_npm = _fetch_npm()
    dest = lock_path.parent
    try:
        lock = fetch_npm.load_lock(lock_path)
        if fetch_npm.problems(lock, dest):
            fetch_npm.fetch(lock, dest)
        wrong = fetch_npm.problems(lock, dest)
    except fetch_npm.FetchError as exc:
        raise AxeBundleError(f"cannot build without the pinned axe-core bundle: {exc}") from None
    if wrong:
        raise AxeBundleError("the axe-core bundle does not match its lock: " + "; ".join(wrong))
    notice = dest / AXE_NOTICE
    if not notice.is_file():
        raise AxeBundleError(f"{notice} is missing; the bundle's licence notice must ship with it")
    return [dest / fetch_npm.dest_name(member) for member in lock["files"]] + [notice]


class BuildPyWithAxe(build_py):
    """``build_py`` that also places the verified axe-core bundle in the built package."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        target = Path(self.build_lib) / PACKAGED_AXE_DIR
        target.mkdir(parents=True, exist_ok=True)
        for source in verified_axe_files():
            shutil.copyfile(source, target / source.name)


class SdistWithAxe(sdist):
    """``sdist`` that makes sure the verified bundle is in ``vendor/axe/`` before
    ``MANIFEST.in`` is read, so the archive carries it."""

    def run(self) -> None:
        verified_axe_files()
        super().run()


# setuptools runs this file as __main__; the tests import it for verified_axe_files.
if __name__ == "__main__":
    setup(cmdclass={"build_py": BuildPyWithAxe, "sdist": SdistWithAxe})
