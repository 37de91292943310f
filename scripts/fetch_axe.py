#!/usr/bin/env python3
"""Fetch the pinned axe-core bundle into vendor/axe/ and verify it.

The pin is vendor/axe/axe.lock.json (committed). The bundle itself and the
licence files are not committed; this script puts them in place:

    python scripts/fetch_axe.py            # fetch if missing or altered
    python scripts/fetch_axe.py --check    # verify only, never fetch
    python scripts/fetch_axe.py --relock   # after editing version/integrity in
                                           # the lock: fetch, verify the tarball
                                           # and rewrite the per-file sha256s

The tarball comes from the npm registry through `npm pack`; its sha512 must
equal the lock's SRI `integrity` before anything is read out of it, and every
extracted file must match its sha256 in the lock. Standard library only.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import hmac
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
AXE_DIR = ROOT / "vendor" / "axe"
LOCK_PATH = AXE_DIR / "axe.lock.json"

# Files taken from the tarball. The first two must exist in it; the last is
# copied when the package ships it.
REQUIRED = ("axe.min.js", "LICENSE")
OPTIONAL = ("LICENSE-3RD-PARTY.txt",)
MAX_MEMBER_BYTES = 32 * 1024 * 1024
NPM_TIMEOUT_S = 300

_VERSION_RE = re.compile(r"^[0-9]+\.[0-9]+\.[0-9]+(?:-[0-9A-Za-z.]+)?$")
_PACKAGE_RE = re.compile(r"^[a-z0-9][a-z0-9._-]*$")
_HEX64_RE = re.compile(r"^[0-9a-f]{64}$")


class FetchError(Exception):
    """A failure with a message meant for the person running the script."""


def _sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 16), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _sha512_sri(path: Path) -> str:
    digest = hashlib.sha512()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 16), b""):
            digest.update(chunk)
    return "sha512-" + base64.b64encode(digest.digest()).decode("ascii")


def load_lock() -> dict:
    try:
        lock = json.loads(LOCK_PATH.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise FetchError(f"lock file missing: {LOCK_PATH}") from None
    except (OSError, ValueError) as exc:
        raise FetchError(f"cannot read {LOCK_PATH}: {exc}") from None
    if not isinstance(lock, dict):
        raise FetchError(f"{LOCK_PATH}: expected a JSON object")

    package = lock.get("package")
    version = lock.get("version")
    integrity = lock.get("integrity")
    files = lock.get("files")
    if not isinstance(package, str) or not _PACKAGE_RE.match(package):
        raise FetchError(f"{LOCK_PATH}: bad 'package': {package!r}")
    if not isinstance(version, str) or not _VERSION_RE.match(version):
        raise FetchError(f"{LOCK_PATH}: bad 'version': {version!r}")
    if not isinstance(integrity, str) or not any(
        tok.startswith("sha512-") for tok in integrity.split()
    ):
        raise FetchError(f"{LOCK_PATH}: 'integrity' must hold a sha512- SRI value")
    if not isinstance(files, dict) or "axe.min.js" not in files:
        raise FetchError(f"{LOCK_PATH}: 'files' must map 'axe.min.js' to its sha256")
    allowed = set(REQUIRED) | set(OPTIONAL)
    for name, digest in files.items():
        if name not in allowed:
            raise FetchError(f"{LOCK_PATH}: unexpected file name in 'files': {name!r}")
        if not isinstance(digest, str) or not _HEX64_RE.match(digest):
            raise FetchError(f"{LOCK_PATH}: 'files'[{name!r}] is not a sha256 hex digest")
    return lock


def problems(lock: dict) -> list[str]:
    """What is wrong with the installed files; empty when all match the lock."""
    found = []
    for name, want in lock["files"].items():
        path = AXE_DIR / name
        if not path.is_file():
            found.append(f"{path.relative_to(ROOT)} is missing")
        elif _sha256_file(path) != want:
            found.append(f"{path.relative_to(ROOT)} does not match its sha256 in the lock")
    return found


def _integrity_ok(tarball: Path, integrity: str) -> bool:
    actual = _sha512_sri(tarball)
    wanted = [tok for tok in integrity.split() if tok.startswith("sha512-")]
    return any(hmac.compare_digest(actual, tok) for tok in wanted)


def _npm_pack(spec: str, dest: Path) -> Path:
    npm = shutil.which("npm")
    if npm is None:
        raise FetchError(
            "npm is not installed; it is needed once to fetch axe-core "
            "(Debian: apt-get install npm, or run scripts/install.sh)"
        )
    env = dict(os.environ)
    env.update(
        npm_config_audit="false",
        npm_config_fund="false",
        npm_config_update_notifier="false",
    )
    cmd = [npm, "pack", spec, "--pack-destination", str(dest), "--ignore-scripts"]
    try:
        proc = subprocess.run(
            cmd,
            cwd=dest,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=NPM_TIMEOUT_S,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise FetchError(f"`npm pack {spec}` did not finish within {NPM_TIMEOUT_S}s") from None
    except OSError as exc:
        raise FetchError(f"could not run npm: {exc}") from None
    if proc.returncode != 0:
        tail = "\n".join((proc.stderr or proc.stdout or "").strip().splitlines()[-15:])
        raise FetchError(f"`npm pack {spec}` failed (exit {proc.returncode}):\n{tail}")
    tarballs = sorted(dest.glob("*.tgz"))
    if len(tarballs) != 1:
        raise FetchError(f"`npm pack {spec}` produced {len(tarballs)} tarballs, expected 1")
    return tarballs[0]


def _read_members(tarball: Path, names: list[str], version: str) -> dict[str, bytes]:
    """Read the wanted regular files out of the tarball, by exact name only.

    Nothing is extracted by the archive's own paths: each wanted member is read
    into memory and later written under a name chosen here, so entries such as
    '../x', absolute paths, links or devices can never land outside vendor/axe.
    """
    out: dict[str, bytes] = {}
    try:
        with tarfile.open(tarball, mode="r:gz") as tar:
            members = {m.name: m for m in tar.getmembers()}

            meta = members.get("package/package.json")
            if meta is not None and meta.isfile() and meta.size <= MAX_MEMBER_BYTES:
                fh = tar.extractfile(meta)
                data = json.loads(fh.read().decode("utf-8")) if fh else {}
                if data.get("version") != version:
                    raise FetchError(
                        f"tarball holds version {data.get('version')!r}, lock says {version!r}"
                    )

            for name in names:
                member = members.get(f"package/{name}")
                if member is None:
                    if name in REQUIRED:
                        raise FetchError(f"tarball has no package/{name}")
                    continue
                if not member.isfile():
                    raise FetchError(f"package/{name} in the tarball is not a regular file")
                if member.size > MAX_MEMBER_BYTES:
                    raise FetchError(f"package/{name} in the tarball is implausibly large")
                fh = tar.extractfile(member)
                if fh is None:
                    raise FetchError(f"cannot read package/{name} from the tarball")
                out[name] = fh.read()
    except (tarfile.TarError, OSError, ValueError) as exc:
        raise FetchError(f"cannot read tarball {tarball.name}: {exc}") from None
    return out


def _write_atomically(name: str, data: bytes) -> None:
    target = AXE_DIR / name
    fd, tmp_name = tempfile.mkstemp(prefix=f".{name}.", suffix=".part", dir=AXE_DIR)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp_name, 0o644)
        os.replace(tmp_name, target)
    except BaseException:
        try:
            os.unlink(tmp_name)
        except FileNotFoundError:
            pass
        raise


def fetch(lock: dict, relock: bool = False) -> dict[str, str]:
    """Download, verify and install the pinned files; returns name -> sha256."""
    spec = f"{lock['package']}@{lock['version']}"
    names = list(REQUIRED) + list(OPTIONAL)
    if not relock:
        names = [n for n in names if n in lock["files"]]

    with tempfile.TemporaryDirectory(prefix="a11y-axe-") as tmp:
        tarball = _npm_pack(spec, Path(tmp))
        if not _integrity_ok(tarball, lock["integrity"]):
            raise FetchError(
                f"integrity mismatch for {spec}: the tarball's sha512 is "
                f"{_sha512_sri(tarball)}, the lock pins {lock['integrity']}; refusing to use it"
            )
        contents = _read_members(tarball, names, lock["version"])

    digests = {name: hashlib.sha256(data).hexdigest() for name, data in contents.items()}
    if not relock:
        for name, want in lock["files"].items():
            if digests.get(name) != want:
                raise FetchError(
                    f"package/{name} from the verified tarball has sha256 "
                    f"{digests.get(name)}, the lock says {want}; refusing to install it"
                )

    AXE_DIR.mkdir(parents=True, exist_ok=True)
    for name, data in contents.items():
        _write_atomically(name, data)
    return digests


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="verify only; exit 1 if not in place")
    mode.add_argument(
        "--relock",
        action="store_true",
        help="fetch the version/integrity now in the lock and rewrite its file sha256s",
    )
    args = parser.parse_args(argv)

    try:
        lock = load_lock()
        if args.relock:
            lock["files"] = fetch(lock, relock=True)
            LOCK_PATH.write_text(json.dumps(lock, indent=2) + "\n", encoding="utf-8")
            print(f"fetch_axe: relocked {lock['package']} {lock['version']}", file=sys.stderr)
            return 0

        wrong = problems(lock)
        if not wrong:
            return 0
        if args.check:
            for line in wrong:
                print(f"fetch_axe: {line}", file=sys.stderr)
            print("fetch_axe: run scripts/fetch_axe.py (or scripts/install.sh)", file=sys.stderr)
            return 1

        fetch(lock)
        still = problems(lock)
        if still:
            raise FetchError("after installing: " + "; ".join(still))
        print(
            f"fetch_axe: installed {lock['package']} {lock['version']} in "
            f"{AXE_DIR.relative_to(ROOT)}/ (integrity and sha256 verified)",
            file=sys.stderr,
        )
        return 0
    except FetchError as exc:
        print(f"fetch_axe: error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
