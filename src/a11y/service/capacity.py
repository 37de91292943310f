"""What the machine can give the audits it is asked to run at once.

An audit keeps about one core busy (the page's renderer, axe's run, the browser's own
processes), so audits beyond the number of cores only queue inside the browser: on 2 cores,
``--concurrency 4`` gave no more audits per second than 1 while every audit took up to four
times longer. The service still runs as configured, but says so at start-up and on
``/health``, where an operator looks.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from audit.models import CapacityInfo


def usable_cpus() -> int:
    """The cores this process may run on (its affinity, or the CPU count)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


@dataclass(frozen=True)
class Capacity:
    concurrency: int
    cpus: int

    @property
    def warning(self) -> str | None:
        if self.concurrency <= self.cpus:
            return None
        return (f"--concurrency {self.concurrency} exceeds the {self.cpus} usable CPU core(s): "
                f"audits beyond {self.cpus} at once wait for a core and add latency, not "
                "throughput")

    def as_json(self) -> dict[str, object]:
        info = CapacityInfo(concurrency=self.concurrency, cpus=self.cpus, warning=self.warning)
        return info.model_dump(mode="json", exclude_none=True)
