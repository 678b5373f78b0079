"""The device clock."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta


class Clock:
    """The device clock. Fixed by default: it moves only when set, so dates in apps are
    deterministic. A running clock (`runs`, as an emulator's guest clock) moves on with the host's
    monotonic time from wherever it was last set: a snapshot load sets it back to the save time,
    and it runs on from there."""

    def __init__(self, start: datetime, runs: bool = False) -> None:
        self.runs = runs
        self._now = start
        self._since = time.monotonic()

    def now(self) -> datetime:
        if self.runs:
            return self._now + timedelta(seconds=time.monotonic() - self._since)
        return self._now

    def set(self, when: datetime) -> None:
        self._now = when if when.tzinfo else when.replace(tzinfo=UTC)
        self._since = time.monotonic()

    def advance(self, seconds: float) -> None:
        self._now += timedelta(seconds=seconds)

    def millis(self) -> int:
        return int(self.now().timestamp() * 1000)
