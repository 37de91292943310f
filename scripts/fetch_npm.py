#!/usr/bin/env python3
"""Fetch the files of a pinned npm package into its lock's directory and verify them.

Each pin is a lock file (committed) such as vendor/axe/axe.lock.json:

    {
      "package": "axe-core",
      "version": "4.14.1",
      "integrity": "sha512-...",
      "files": {"axe.min.js": "<sha256 hex>", "LICENSE": "<sha256 hex>"}
    }

`files` maps a path inside the tarball, relative to its `package/` directory,
to the file's sha256. Every listed file is placed in the lock's own directory
under its base name (lib/schemas/x.json becomes x.json). The fetched files
themselves are not committed; this script puts them in place:

    python scripts/fetch_npm.py --lock L           # fetch if missing or altered
    python scripts/fetch_npm.py --lock L --check   # verify only, never fetch
    python scripts/fetch_npm.py --lock L --relock  # after editing version/integrity
                                                   # or the file list in the lock:
                                                   # fetch, verify the tarball and
                                                   # rewrite the per-file sha256s

Without --lock the lock is vendor/axe/axe.lock.json (scripts/fetch_axe.py is
this script with that default). The tarball comes from the npm registry through
`npm pack`; its sha512 must equal the lock's SRI `integrity` before anything is
read out of it, and every extracted file must match its sha256 in the lock.
Standard library only.
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
DEFAULT_LOCK = ROOT / "vendor" / "axe" / "axe.lock.json"

MAX_MEMBER_BYTES = 32 * 1024 * 1024
NPM_TIMEOUT_S = 300

_VERSION_RE = re.compile(r"^[0-9]+\.[0-9]+\.[0-9]+(?:-[0-9A-Za-z.]+)?$")
# An npm package name, optionally scoped (@scope/name).
_PACKAGE_RE = re.compile(r"^(?:@[a-z0-9][a-z0-9._-]*/)?[a-z0-9][a-z0-9._-]*$")
# One segment of a path inside the tarball: no '..', no hidden names, no separators.
_SEGMENT_RE = re.compile(r"^[A-Za-z0-9_-][A-Za-z0-9._-]*$")
_HEX64_RE = re.compile(r"^[0-9a-f]{64}$")


class FetchError(Exception):
    """A failure with a message meant for the person running the script."""


def _shown(path: Path) -> str:
    """The path relative to the checkout when it lies inside it, else as given."""
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


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


def dest_name(member: str) -> str:
    """The name a tarball path is installed under: its base name."""
    return member.rsplit("/", 1)[-1]


def load_lock(lock_path: Path, relock: bool = False) -> dict:
    """Read and check a lock. With ``relock`` the file digests may still be placeholders."""
    try:
        lock = json.loads(lock_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise FetchError(f"lock file missing: {lock_path}") from None
    except (OSError, ValueError) as exc:
        raise FetchError(f"cannot read {lock_path}: {exc}") from None
    if not isinstance(lock, dict):
        raise FetchError(f"{lock_path}: expected a JSON object")

    package = lock.get("package")
    version = lock.get("version")
    integrity = lock.get("integrity")
    files = lock.get("files")
    if not isinstance(package, str) or not _PACKAGE_RE.match(package):
        raise FetchError(f"{lock_path}: bad 'package': {package!r}")
    if not isinstance(version, str) or not _VERSION_RE.match(version):
        raise FetchError(f"{lock_path}: bad 'version': {version!r}")
    if not isinstance(integrity, str) or not any(
        tok.startswith("sha512-") for tok in integrity.split()
    ):
        raise FetchError(f"{lock_path}: 'integrity' must hold a sha512- SRI value")
    if not isinstance(files, dict) or not files:
        raise FetchError(
            f"{lock_path}: 'files' must map each path inside the package to its sha256"
        )
    seen: dict[str, str] = {}
    for member, digest in files.items():
        segments = member.split("/")
        if not all(_SEGMENT_RE.match(seg) for seg in segments):
            raise FetchError(
                f"{lock_path}: 'files' key {member!r} is not a plain relative path "
                "inside the package"
            )
        name = dest_name(member)
        if name == lock_path.name:
            raise FetchError(f"{lock_path}: 'files' key {member!r} would overwrite the lock")
        if name in seen:
            raise FetchError(
                f"{lock_path}: 'files' keys {seen[name]!r} and {member!r} share the "
                f"base name {name!r}"
            )
        seen[name] = member
        if not relock and (not isinstance(digest, str) or not _HEX64_RE.match(digest)):
            raise FetchError(
                f"{lock_path}: 'files'[{member!r}] is not a sha256 hex digest "
                "(run with --relock to fill it in)"
            )
    return lock


def problems(lock: dict, dest: Path) -> list[str]:
    """What is wrong with the installed files; empty when all match the lock."""
    found = []
    for member, want in lock["files"].items():
        path = dest / dest_name(member)
        if not path.is_file():
            found.append(f"{_shown(path)} is missing")
        elif _sha256_file(path) != want:
            found.append(f"{_shown(path)} does not match its sha256 in the lock")
    return found


def _integrity_ok(tarball: Path, integrity: str) -> bool:
    actual = _sha512_sri(tarball)
    wanted = [tok for tok in integrity.split() if tok.startswith("sha512-")]
    return any(hmac.compare_digest(actual, tok) for tok in wanted)


def _npm_pack(spec: str, dest: Path) -> Path:
    npm = shutil.which("npm")
    if npm is None:
        raise FetchError(
            f"npm is not installed; it is needed once to fetch {spec} "
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


def _read_members(
    tarball: Path, members_wanted: list[str], package: str, version: str
) -> dict[str, bytes]:
    """Read the wanted regular files out of the tarball, by exact name only.

    Nothing is extracted by the archive's own paths: each wanted member is read
    into memory and later written under a name chosen here, so entries such as
    '../x', absolute paths, links or devices can never land outside the lock's
    directory. Every wanted member must be in the tarball.
    """
    out: dict[str, bytes] = {}
    try:
        with tarfile.open(tarball, mode="r:gz") as tar:
            members = {m.name: m for m in tar.getmembers()}

            meta = members.get("package/package.json")
            if meta is not None and meta.isfile() and meta.size <= MAX_MEMBER_BYTES:
                fh = tar.extractfile(meta)
                data = json.loads(fh.read().decode("utf-8")) if fh else {}
                if data.get("name") != package:
                    raise FetchError(
                        f"tarball holds package {data.get('name')!r}, lock says {package!r}"
                    )
                if data.get("version") != version:
                    raise FetchError(
                        f"tarball holds version {data.get('version')!r}, lock says {version!r}"
                    )

            for name in members_wanted:
                member = members.get(f"package/{name}")
                if member is None:
                    raise FetchError(
                        f"tarball has no package/{name} (listed in the lock's 'files')"
                    )
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


def _write_atomically(dest: Path, name: str, data: bytes) -> None:
    target = dest / name
    fd, tmp_name = tempfile.mkstemp(prefix=f".{name}.", suffix=".part", dir=dest)
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


def fetch(lock: dict, dest: Path, relock: bool = False) -> dict[str, str]:
    """Download, verify and install the pinned files; returns tarball path -> sha256."""
    spec = f"{lock['package']}@{lock['version']}"
    wanted = list(lock["files"])

    with tempfile.TemporaryDirectory(prefix="a11y-npm-") as tmp:
        tarball = _npm_pack(spec, Path(tmp))
        if not _integrity_ok(tarball, lock["integrity"]):
            raise FetchError(
                f"integrity mismatch for {spec}: the tarball's sha512 is "
                f"{_sha512_sri(tarball)}, the lock pins {lock['integrity']}; refusing to use it"
            )
        contents = _read_members(tarball, wanted, lock["package"], lock["version"])

    digests = {name: hashlib.sha256(data).hexdigest() for name, data in contents.items()}
    if not relock:
        for name, want in lock["files"].items():
            if digests.get(name) != want:
                raise FetchError(
                    f"package/{name} from the verified tarball has sha256 "
                    f"{digests.get(name)}, the lock says {want}; refusing to install it"
                )

    dest.mkdir(parents=True, exist_ok=True)
    for name, data in contents.items():
        _write_atomically(dest, dest_name(name), data)
    return digests


def main(argv: list[str] | None = None, prog: str = "fetch_npm") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--lock",
        type=Path,
        default=DEFAULT_LOCK,
        help=f"the lock file; files go into its directory (default: {_shown(DEFAULT_LOCK)})",
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="verify only; exit 1 if not in place")
    mode.add_argument(
        "--relock",
        action="store_true",
        help="fetch the version/integrity now in the lock and rewrite its file sha256s",
    )
    args = parser.parse_args(argv)
    lock_path: Path = args.lock.resolve()
    dest = lock_path.parent

    try:
        lock = load_lock(lock_path, relock=args.relock)
        if args.relock:
            lock["files"] = fetch(lock, dest, relock=True)
            lock_path.write_text(json.dumps(lock, indent=2) + "\n", encoding="utf-8")
            print(f"{prog}: relocked {lock['package']} {lock['version']}", file=sys.stderr)
            return 0

        wrong = problems(lock, dest)
        if not wrong:
            return 0
        if args.check:
            for line in wrong:
                print(f"{prog}: {line}", file=sys.stderr)
            print(
                f"{prog}: run scripts/fetch_npm.py --lock {_shown(lock_path)} "
                "(or scripts/install.sh)",
                file=sys.stderr,
            )
            return 1

        fetch(lock, dest)
        still = problems(lock, dest)
        if still:
            raise FetchError("after installing: " + "; ".join(still))
        print(
            f"{prog}: installed {lock['package']} {lock['version']} in "
            f"{_shown(dest)}/ (integrity and sha256 verified)",
            file=sys.stderr,
        )
        return 0
    except FetchError as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
