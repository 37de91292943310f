#!/usr/bin/env bash
# Install whatever this checkout needs that is still missing, on Debian 12:
#   - Chromium (unless $CHROME_PATH or /usr/lib/chromium/chromium is executable)
#   - ffmpeg (the video tools need it)
#   - tesseract-ocr (the image-of-text check reads the text in images with it)
#   - .venv with the package installed editable plus its test extras
#   - the pinned axe-core bundle in vendor/axe/ and the official SARIF 2.1.0
#     JSON schema in vendor/sarif/
#   - ESLint for the page-side scripts, pinned by scripts/lint/package-lock.json,
#     into scripts/lint/node_modules/
#   (npm is installed only if something has to be fetched and npm is absent)
#   - with --tests: Redis and PostgreSQL servers (redis-server, postgresql),
#     which the tests start on temporary ports; the service itself needs
#     neither (SQLite and an in-process queue by default)
# Safe to re-run: a run with nothing to do prints nothing and takes about a
# second. Set A11Y_PYTHON to choose the interpreter the venv is made from.
set -euo pipefail

FOR_TESTS=0
for arg in "$@"; do
    case "$arg" in
        --tests) FOR_TESTS=1 ;;
        *) printf 'install.sh: unknown argument: %s (only --tests is known)\n' "$arg" >&2; exit 2 ;;
    esac
done

ROOT="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd -- "$ROOT"

VENV="$ROOT/.venv"
VPY="$VENV/bin/python"
STAMP="$VENV/.a11y-install-stamp"
BASE_PY="${A11Y_PYTHON:-python3}"

say() { printf 'install.sh: %s\n' "$*" >&2; }
die() { printf 'install.sh: error: %s\n' "$*" >&2; exit 1; }

LOG="$(mktemp "${TMPDIR:-/tmp}/a11y-install.XXXXXX")"
trap 'rm -f -- "$LOG"' EXIT

# Run a command with its output kept in $LOG; show the output only on failure.
quietly() {
    if ! "$@" >"$LOG" 2>&1; then
        printf 'install.sh: command failed: %s\n' "$*" >&2
        tail -n 40 -- "$LOG" >&2 || true
        return 1
    fi
}

# Serialise concurrent runs (e.g. serve.sh and test.sh started together).
if command -v flock >/dev/null 2>&1; then
    lock_id="$(printf '%s' "$ROOT" | sha256sum | cut -c1-16)"
    exec 9>"${TMPDIR:-/tmp}/a11y-install-$(id -u)-$lock_id.lock"
    flock 9
fi

# ---------------------------------------------------------------- apt-get
SUDO=()
APT_UPDATED=0
apt_install() {
    # apt_install PACKAGE... : install Debian packages, running apt-get update once.
    if ! command -v apt-get >/dev/null 2>&1; then
        die "apt-get not found; install these packages by hand: $*"
    fi
    if [ "$(id -u)" -ne 0 ] && [ "${#SUDO[@]}" -eq 0 ]; then
        if ! command -v sudo >/dev/null 2>&1; then
            die "need root to install: $*. Re-run as root, install sudo, or install them yourself (apt-get install $*)"
        fi
        if [ -t 0 ]; then SUDO=(sudo); else SUDO=(sudo -n); fi
    fi
    local -a apt=("${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get)
    if [ "$APT_UPDATED" -eq 0 ]; then
        say "apt-get update"
        quietly "${apt[@]}" update -q || die "apt-get update failed (no root or sudo rights, or no network?)"
        APT_UPDATED=1
    fi
    say "apt-get install $*"
    quietly "${apt[@]}" install -y -q --no-install-recommends "$@" \
        || die "apt-get install $* failed"
}

# ------------------------------------------------------- system packages
missing=()
if [ -n "${CHROME_PATH:-}" ] && [ ! -x "$CHROME_PATH" ]; then
    say "warning: CHROME_PATH=$CHROME_PATH is not an executable file; ignoring it here"
fi
if { [ -z "${CHROME_PATH:-}" ] || [ ! -x "$CHROME_PATH" ]; } \
        && [ ! -x /usr/lib/chromium/chromium ]; then
    missing+=(chromium)
fi
command -v ffmpeg >/dev/null 2>&1 || missing+=(ffmpeg)
command -v tesseract >/dev/null 2>&1 || missing+=(tesseract-ocr)
if [ "$FOR_TESTS" -eq 1 ]; then
    command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ] || missing+=(redis-server)
    compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
fi
if [ "${#missing[@]}" -gt 0 ]; then
    apt_install "${missing[@]}"
fi

# ------------------------------------------------------------ Python venv
venv_works() { [ -x "$VPY" ] && "$VPY" -c 'import sys' >/dev/null 2>&1; }

if ! venv_works; then
    command -v "$BASE_PY" >/dev/null 2>&1 \
        || die "Python interpreter '$BASE_PY' not found (set A11Y_PYTHON, or apt-get install python3)"
    "$BASE_PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
        || die "'$BASE_PY' is older than Python 3.11; set A11Y_PYTHON to a newer interpreter"
    if [ -e "$VENV" ]; then
        say "existing .venv does not run; recreating it"
        rm -rf -- "$VENV"
    fi
    say "creating .venv with $BASE_PY"
    if ! "$BASE_PY" -m venv "$VENV" >"$LOG" 2>&1; then
        # Debian splits venv/ensurepip out of the interpreter package.
        say "venv creation failed; installing Debian's python3-venv and retrying"
        rm -rf -- "$VENV"
        apt_install python3-venv
        quietly "$BASE_PY" -m venv "$VENV" \
            || die "could not create .venv with $BASE_PY even after installing python3-venv"
    fi
fi

want_stamp="$(sha256sum -- pyproject.toml | cut -d' ' -f1)"
have_stamp="$(cat -- "$STAMP" 2>/dev/null || true)"
if [ "$want_stamp" != "$have_stamp" ]; then
    say "pip install -e '.[test]' into .venv"
    rm -f -- "$STAMP"
    quietly "$VPY" -m pip install -q --disable-pip-version-check -e '.[test]' \
        || die "pip install failed (see output above)"
    printf '%s\n' "$want_stamp" >"$STAMP"
fi

# ------------------------------------------------- pinned npm package files
# axe-core (the audit engine injects it) and the official SARIF 2.1.0 schema
# (the tests validate our SARIF output against it).
for lock in vendor/axe/axe.lock.json vendor/sarif/sarif.lock.json; do
    if ! "$VPY" scripts/fetch_npm.py --lock "$lock" --check >/dev/null 2>&1; then
        command -v npm >/dev/null 2>&1 || apt_install npm
        "$VPY" scripts/fetch_npm.py --lock "$lock" \
            || die "could not install the files pinned in $lock"
    fi
done

# --------------------------------------------------------- pinned ESLint
# The linter the tests run over src/**/js/*.js. `npm ci` installs exactly the
# tree in the committed lock and checks every tarball against the lock's
# sha512 integrity; it runs again only when the lock or package.json changes.
LINT="$ROOT/scripts/lint"
LINT_STAMP="$LINT/node_modules/.a11y-install-stamp"
want_lint="$(cat -- "$LINT/package.json" "$LINT/package-lock.json" | sha256sum | cut -d' ' -f1)"
have_lint="$(cat -- "$LINT_STAMP" 2>/dev/null || true)"
if [ "$want_lint" != "$have_lint" ] || [ ! -x "$LINT/node_modules/.bin/eslint" ]; then
    command -v npm >/dev/null 2>&1 || apt_install npm
    node -e 'const [a, b] = process.versions.node.split(".").map(Number);
             process.exit(a > 18 || (a === 18 && b >= 18) ? 0 : 1)' \
        || die "ESLint 9 needs Node.js 18.18 or newer; found $(node --version)"
    say "npm ci in scripts/lint (ESLint, pinned)"
    rm -f -- "$LINT_STAMP"
    (cd -- "$LINT" && quietly npm ci --ignore-scripts --no-audit --no-fund) \
        || die "could not install the linter pinned in scripts/lint/package-lock.json"
    printf '%s\n' "$want_lint" >"$LINT_STAMP"
fi
