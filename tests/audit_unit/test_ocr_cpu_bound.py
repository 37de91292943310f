"""OCR is bounded by the CPU it uses, not by the wall clock (src/audit/interactive/image_of_text.py):
a busy machine stretches the same work over more seconds, and a page's verdict should not
depend on that. The bound is the kernel's RLIMIT_CPU on the recognising process."""

from __future__ import annotations

import signal
import sys

import trio

from audit.interactive.image_of_text import _cpu_limit


async def test_a_process_that_spins_is_ended_by_its_cpu_bound():
    with trio.fail_after(60):  # a guard against a hang, not a bound on time
        done = await trio.run_process([sys.executable, "-c", "while True: pass"], check=False,
                                      preexec_fn=_cpu_limit(1))
    assert done.returncode in (-signal.SIGXCPU, -signal.SIGKILL)


async def test_a_process_within_its_cpu_bound_finishes():
    with trio.fail_after(60):
        done = await trio.run_process([sys.executable, "-c", "print(sum(range(1000)))"], check=False,
                                      capture_stdout=True, preexec_fn=_cpu_limit(1))
    assert (done.returncode, done.stdout) == (0, b"499500\n")
