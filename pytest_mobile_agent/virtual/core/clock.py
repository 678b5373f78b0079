"""The device clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


class Clock:
    """A fixed device clock: it moves only when set, so dates in apps are deterministic."""

    def __init__(self, start: datetime) -> None:
        self._now = start

    def now(self) -> datetime:
        return self._now

    def set(self, when: datetime) -> None:
        self._now = when if when.tzinfo else when.replace(tzinfo=UTC)

    def advance(self, seconds: float) -> None:
        self._now += timedelta(seconds=seconds)

    def millis(self) -> int:
        return int(self._now.timestamp() * 1000)
