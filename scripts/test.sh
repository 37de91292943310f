#!/usr/bin/env bash
# Install what is missing, then run the test suite. Arguments go to pytest.
# pytest's exit code 5 (no tests collected) is reported as a failure.
#
#   bash scripts/test.sh [--repeat N] [pytest arguments...]
#
# --repeat N runs the suite N times in a row and ends with every test that failed in any run
# (and in how many), so a test that fails only now and then shows up; it exits non-zero when
# any run had a failure.
set -euo pipefail
ROOT="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd -- "$ROOT"

repeat=1
args=()
while [ "$#" -gt 0 ]; do
    case "$1" in
        --repeat)
            [ "$#" -ge 2 ] && [[ "$2" =~ ^[1-9][0-9]*$ ]] \
                || { echo "test.sh: --repeat takes a whole number of runs, 1 or more" >&2; exit 2; }
            repeat="$2"; shift 2 ;;
        --repeat=*)
            repeat="${1#--repeat=}"
            [[ "$repeat" =~ ^[1-9][0-9]*$ ]] \
                || { echo "test.sh: --repeat takes a whole number of runs, 1 or more" >&2; exit 2; }
            shift ;;
        *) args+=("$1"); shift ;;
    esac
done

bash scripts/install.sh --tests

# The suite starts many Python processes (serve, worker, mcp, audit, pytest itself, inside
# tests): with PYTHONDONTWRITEBYTECODE set (some images set it), each would compile every
# module of src/ and pytest would rewrite every test module again, about a minute of CPU
# over a run. The caches land in __pycache__/, which git ignores.
unset PYTHONDONTWRITEBYTECODE

# Tests run in worker processes, one more than the machine has cores: a test spends most of
# its time waiting on a browser, a server or a timer, so one worker per core leaves the cores
# idle half the time. worksteal hands a worker that has run out of tests some of another's,
# so one slow file does not keep the others waiting at the end. A11Y_TEST_WORKERS overrides
# the count (0 runs everything in this process, as a plain `pytest` does).
workers="${A11Y_TEST_WORKERS:-$(( $(nproc) + 1 ))}"
[[ "$workers" =~ ^[0-9]+$ ]] \
    || { echo "test.sh: A11Y_TEST_WORKERS takes a whole number of workers, 0 or more" >&2; exit 2; }
parallel=()
[ "$workers" -gt 0 ] && parallel=(-n "$workers" --dist worksteal)

run_once() {  # run_once LOG: one pytest run, its output shown and kept in LOG; returns pytest's code
    local rc=0
    # -rfE lists failures and errors in the short summary, one line each: what --repeat collects.
    set +e
    .venv/bin/python -m pytest -q -rfE --durations=15 ${parallel[@]+"${parallel[@]}"} ${args[@]+"${args[@]}"} 2>&1 | tee "$1"
    rc="${PIPESTATUS[0]}"
    set -e
    if [ "$rc" -eq 5 ]; then
        echo "test.sh: pytest collected no tests; treating that as a failure" >&2
        rc=1
    fi
    return "$rc"
}

if [ "$repeat" -eq 1 ]; then
    log="$(mktemp "${TMPDIR:-/tmp}/a11y-test.XXXXXX")"
    trap 'rm -f -- "$log"' EXIT
    rc=0
    run_once "$log" || rc=$?
    exit "$rc"
fi

logs="$(mktemp -d "${TMPDIR:-/tmp}/a11y-repeat.XXXXXX")"
trap 'rm -rf -- "$logs"' EXIT
worst=0
for run in $(seq 1 "$repeat"); do
    echo "test.sh: run $run of $repeat" >&2
    rc=0
    run_once "$logs/run-$run.log" || rc=$?
    [ "$rc" -ne 0 ] && worst="$rc"
    grep -E '^(FAILED|ERROR) ' "$logs/run-$run.log" | sed -E 's/ - .*$//' >"$logs/failed-$run.txt" || true
    echo "test.sh: run $run of $repeat: exit $rc, $(wc -l <"$logs/failed-$run.txt") failed" >&2
done
echo "test.sh: tests that failed in any of $repeat runs (runs failed, test):" >&2
cat "$logs"/failed-*.txt | sort | uniq -c | sort -rn >&2 || true
exit "$worst"
