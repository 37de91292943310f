"""Admission: how many audits run at once and how many may wait."""

from __future__ import annotations

import math

import trio


class AuditGate:
    """At most ``concurrency`` audits run and ``queue_size`` wait; the rest are refused.

    Admission is decided synchronously on arrival (no await between the check and the
    increment), so the bound holds exactly under any interleaving.
    """

    def __init__(self, concurrency: int, queue_size: int) -> None:
        self.capacity = concurrency + queue_size
        self.limiter = trio.CapacityLimiter(concurrency)
        #: Pages being audited at once, over every running audit and crawl.
        self.pages = trio.CapacityLimiter(concurrency)
        self.admitted = 0
        self._mean_duration = 10.0  # seconds, smoothed; only feeds Retry-After

    @property
    def running(self) -> int:
        return self.limiter.borrowed_tokens

    @property
    def waiting(self) -> int:
        return self.admitted - self.running

    def try_admit(self) -> bool:
        if self.admitted >= self.capacity:
            return False
        self.admitted += 1
        return True

    def release(self) -> None:
        self.admitted -= 1

    def record_duration(self, seconds: float) -> None:
        self._mean_duration = 0.8 * self._mean_duration + 0.2 * seconds

    def retry_after(self) -> int:
        """Seconds until a slot is likely free: the queue ahead drained at the mean pace."""
        slots = self.limiter.total_tokens
        rounds = (self.waiting + slots) / slots
        return max(1, min(300, math.ceil(rounds * self._mean_duration)))
