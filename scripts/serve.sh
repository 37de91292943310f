#!/usr/bin/env bash
# Install what is missing, then start the audit service.
# Arguments go to `python -m a11y serve`; with none, it listens on port 8080.
set -euo pipefail
ROOT="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd -- "$ROOT"
bash scripts/install.sh
if [ "$#" -eq 0 ]; then
    set -- --port 8080
fi
exec .venv/bin/python -m a11y serve "$@"
