"""Request and token rate limits (RPM / TPM), and the shared pause after a 429.

Two token buckets refilled continuously at limit/60 per second, each holding at most one second of
budget, so no minute can exceed the limit and requests are spread out instead of bursting at the
start of each minute. A request that needs more tokens than one second's budget may run the
bucket into debt (otherwise it could never be sent); later requests pay it back by waiting.

Token costs are not known before the answer: a request reserves an estimate (prompt characters / 4
plus max_tokens) and `settle` corrects the bucket with the usage the server reports.

When the server answers 429, every worker should back off, not just the one that got it:
`pause_until` holds all acquisitions until the Retry-After time.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable


class _Bucket:
    def __init__(self, per_minute: float, clock: Callable[[], float]) -> None:
        self.rate = per_minute / 60.0
        self.capacity = max(1.0, self.rate)
        self.level = self.capacity
        self.clock = clock
        self.stamp = clock()

    def refill(self) -> None:
        now = self.clock()
        self.level = min(self.capacity, self.level + (now - self.stamp) * self.rate)
        self.stamp = now

    def wait_for(self, cost: float) -> float:
        """Seconds until `cost` can be taken (0 when it can be taken now)."""
        self.refill()
        need = min(cost, self.capacity)
        return 0.0 if self.level >= need else (need - self.level) / self.rate

    def take(self, cost: float) -> None:
        self.level -= cost


class RateLimiter:
    def __init__(self, rpm: int = 0, tpm: int = 0, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.requests = _Bucket(rpm, clock) if rpm > 0 else None
        self.tokens = _Bucket(tpm, clock) if tpm > 0 else None
        self.paused_until = 0.0
        self._lock = asyncio.Lock()

    @property
    def unlimited(self) -> bool:
        return self.requests is None and self.tokens is None

    def pause_until(self, when: float) -> None:
        """Hold every acquisition until the monotonic time `when` (after a 429 with Retry-After)."""
        self.paused_until = max(self.paused_until, when)

    async def acquire(self, estimated_tokens: int) -> None:
        """Wait until one more request of about `estimated_tokens` fits the limits."""
        if self.unlimited and self.paused_until <= self.clock():
            return  # the common case: no limits configured, no 429 pending
        async with self._lock:  # FIFO: waiters are served in order
            while True:
                delay = self.paused_until - self.clock()
                if self.requests is not None:
                    delay = max(delay, self.requests.wait_for(1))
                if self.tokens is not None:
                    delay = max(delay, self.tokens.wait_for(estimated_tokens))
                if delay <= 0:
                    break
                await asyncio.sleep(delay)
            if self.requests is not None:
                self.requests.take(1)
            if self.tokens is not None:
                self.tokens.take(estimated_tokens)

    def settle(self, estimated_tokens: int, actual_tokens: int) -> None:
        """Correct the token bucket once the real usage of a request is known."""
        if self.tokens is not None:
            self.tokens.refill()
            self.tokens.take(actual_tokens - estimated_tokens)
