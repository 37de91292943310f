#!/usr/bin/env bash
# Install what is missing, then run the test suite. Arguments go to pytest.
# pytest's exit code 5 (no tests collected) is reported as a failure.
set -euo pipefail
ROOT="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd -- "$ROOT"
bash scripts/install.sh --tests
rc=0
.venv/bin/python -m pytest -q --durations=15 "$@" || rc=$?  # the slowest, to keep the suite in budget
if [ "$rc" -eq 5 ]; then
    echo "test.sh: pytest collected no tests; treating that as a failure" >&2
    exit 1
fi
exit "$rc"
