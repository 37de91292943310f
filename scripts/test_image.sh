#!/usr/bin/env bash
# Build the a11y container image with podman and try it: the service starts and turns
# healthy, audits a page served on the host's loopback, and `a11y mcp` in the image answers
# an MCP tools/list. Not part of the test suite (it builds an image: minutes, not seconds).
#
# Needs podman with the runc runtime (Debian: apt-get install podman runc debootstrap).
# On machines whose sandbox refuses setrlimit, containers.conf needs `default_ulimits = []`
# under [containers]; as root this script adds it. Without a registry, the base image
# debian:bookworm-slim is made with debootstrap from Debian's packages and imported.
# Prints the image size, the build time and the time from `podman run` to healthy.
# Everything it starts (the page server, containers) is stopped by id on every path.
set -euo pipefail

ROOT="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd -P)"
PY="$ROOT/.venv/bin/python"
IMAGE="localhost/a11y:test"
BASE="debian:bookworm-slim"
PODMAN=(podman --runtime runc)
CONF=/etc/containers/containers.conf

say() { printf 'test_image.sh: %s\n' "$*" >&2; }
die() { printf 'test_image.sh: error: %s\n' "$*" >&2; exit 1; }

command -v podman >/dev/null 2>&1 || die "podman is not installed (Debian: apt-get install podman runc debootstrap)"
command -v runc >/dev/null 2>&1 || die "runc is not installed (Debian: apt-get install runc)"
[ -x "$PY" ] || die "no .venv; run scripts/install.sh first"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/a11y-image.XXXXXX")"
SITE_PID=""
CONTAINER=""
MCP_NAME="a11y-test-mcp-$$"
cleanup() {
    if [ -n "$CONTAINER" ]; then "${PODMAN[@]}" rm -f -t 5 "$CONTAINER" >/dev/null 2>&1 || true; fi
    "${PODMAN[@]}" rm -f -t 5 --ignore "$MCP_NAME" >/dev/null 2>&1 || true
    if [ -n "$SITE_PID" ]; then kill "$SITE_PID" 2>/dev/null || true; wait "$SITE_PID" 2>/dev/null || true; fi
    rm -rf -- "$WORK"
}
trap cleanup EXIT

# ------------------------------------------------------------ runtime config
if ! grep -Eq '^[[:space:]]*default_ulimits[[:space:]]*=[[:space:]]*\[\]' "$CONF" 2>/dev/null; then
    [ "$(id -u)" -eq 0 ] || die "$CONF needs 'default_ulimits = []' under [containers]; add it as root"
    say "adding 'default_ulimits = []' under [containers] in $CONF"
    mkdir -p -- "$(dirname -- "$CONF")"
    if grep -q '^\[containers\]' "$CONF" 2>/dev/null; then
        sed -i 's/^\[containers\]$/[containers]\ndefault_ulimits = []/' "$CONF"
    else
        printf '[containers]\ndefault_ulimits = []\n' >>"$CONF"
    fi
fi

# ---------------------------------------------------------------- base image
if ! "${PODMAN[@]}" image exists "$BASE"; then
    command -v debootstrap >/dev/null 2>&1 || die "no $BASE image and no debootstrap to make one (apt-get install debootstrap)"
    say "making $BASE with debootstrap (minbase)"
    debootstrap --variant=minbase bookworm "$WORK/rootfs" >"$WORK/debootstrap.log" 2>&1 \
        || { tail -n 20 -- "$WORK/debootstrap.log" >&2; die "debootstrap failed"; }
    tar -C "$WORK/rootfs" -c . | "${PODMAN[@]}" import - "$BASE" >"$WORK/import.log" 2>&1 \
        || { tail -n 20 -- "$WORK/import.log" >&2; die "podman import failed"; }
    rm -rf -- "$WORK/rootfs"
fi

# --------------------------------------------------------------------- build
# The sdist, then the wheel from it (as users get it; nothing is built inside the checkout).
say "building the wheel"
"$PY" -m build --outdir "$WORK/dist" "$ROOT" >"$WORK/build.log" 2>&1 \
    || { tail -n 30 -- "$WORK/build.log" >&2; die "python -m build failed"; }
say "building $IMAGE"
# Behind a TLS-inspecting proxy pip needs its CA (the host's pip is told with PIP_CERT).
cert_args=()
if [ -n "${PIP_CERT:-}" ] && [ -f "$PIP_CERT" ]; then
    cert_args=(--volume "$PIP_CERT:/etc/ssl/build-ca.crt:ro" --build-arg PIP_CERT=/etc/ssl/build-ca.crt)
fi
started=$(date +%s.%N)
# Docker's format: the OCI image format has no HEALTHCHECK.
"${PODMAN[@]}" build --format docker --network host "${cert_args[@]}" -t "$IMAGE" -f "$ROOT/Dockerfile" "$WORK/dist" >"$WORK/image.log" 2>&1 \
    || { tail -n 30 -- "$WORK/image.log" >&2; die "podman build failed"; }
build_s=$(echo "$(date +%s.%N) - $started" | bc)
size=$("${PODMAN[@]}" image inspect --format '{{.Size}}' "$IMAGE")

# ----------------------------------------------------- a page on loopback
free_port() { "$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
mkdir -p -- "$WORK/site"
printf '<!doctype html><html lang="en"><title>Image test</title><main><h1>Image test</h1><img src="x.png"></main></html>\n' \
    >"$WORK/site/index.html"
SITE_PORT=$(free_port)
"$PY" -m http.server --bind 127.0.0.1 --directory "$WORK/site" "$SITE_PORT" >/dev/null 2>&1 &
SITE_PID=$!

# ------------------------------------------------------------- the service
PORT=$(free_port)
TOKEN=$("$PY" -c 'import secrets; print(secrets.token_hex(16))')
started=$(date +%s.%N)
# No health timer (it needs systemd): the loop below runs the image's check itself.
CONTAINER=$("${PODMAN[@]}" run -d --network host --health-interval disable \
    -e A11Y_API_TOKEN="$TOKEN" -e A11Y_HEALTH_PORT="$PORT" \
    "$IMAGE" serve --host 127.0.0.1 --port "$PORT" 2>"$WORK/run.log") \
    || { cat -- "$WORK/run.log" >&2; die "podman run failed"; }
deadline=$(( $(date +%s) + 180 ))
until "${PODMAN[@]}" healthcheck run "$CONTAINER" >"$WORK/health.log" 2>&1; do
    [ "$("${PODMAN[@]}" inspect --format '{{.State.Running}}' "$CONTAINER")" = true ] \
        || { "${PODMAN[@]}" logs "$CONTAINER" >&2; die "the service container exited"; }
    [ "$(date +%s)" -lt "$deadline" ] || { "${PODMAN[@]}" logs "$CONTAINER" >&2; cat -- "$WORK/health.log" >&2; die "not healthy within 180 s"; }
    sleep 0.5
done
healthy_s=$(echo "$(date +%s.%N) - $started" | bc)

audit=$("$PY" - "http://127.0.0.1:$PORT/audit" "http://127.0.0.1:$SITE_PORT/" "$TOKEN" <<'EOF'
import json, sys, urllib.request
endpoint, page, token = sys.argv[1:]
request = urllib.request.Request(endpoint, data=json.dumps({"url": page}).encode(), method="POST",
                                 headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
with urllib.request.urlopen(request, timeout=180) as answer:
    result = json.load(answer)
rules = sorted({f["ruleId"] for f in result["findings"]})
assert "image-alt" in rules, rules
print(f"{len(result['findings'])} findings ({', '.join(rules)})")
EOF
) || { "${PODMAN[@]}" logs "$CONTAINER" >&2; die "POST /audit failed"; }

# ----------------------------------------------------------------- MCP stdio
tools=$("$PY" - "$IMAGE" "$MCP_NAME" <<'EOF'
import sys
import trio
from mcp import Client, StdioServerParameters

async def main() -> None:
    image, name = sys.argv[1:]
    args = ["--runtime", "runc", "run", "-i", "--rm", "--name", name, "--no-healthcheck",
            "--network", "host", image, "mcp"]
    params = StdioServerParameters(command="podman", args=args)
    with trio.fail_after(180):
        async with Client(params) as client:
            listed = await client.list_tools()
    print(len(listed.tools))

trio.run(main)
EOF
) || die "MCP tools/list through the image failed"

printf 'image %s: %s MB, built in %.0f s\n' "$IMAGE" "$(( size / 1000000 ))" "$build_s"
printf 'service: run -> healthy in %.1f s; POST /audit of a loopback page: %s\n' "$healthy_s" "$audit"
printf 'mcp (stdio, in the image): tools/list -> %s tools\n' "$tools"
