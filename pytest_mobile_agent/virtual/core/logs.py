"""logd: the device log's entries, kept in a ring that `logcat` reads and follows.

Entries carry the device clock's time, which moves only when set, so timestamps repeat; their
order is what is kept.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import datetime

from pytest_mobile_agent.virtual.core.clock import Clock

CAPACITY = 5000  # entries kept per device, oldest dropped first (logd's ring buffer)


@dataclass(frozen=True)
class Entry:
    when: datetime
    pid: int
    tid: int
    priority: str  # one of VDIWEF
    tag: str
    message: str
    buffer: str = "main"


class LogBuffer:
    """logd for one device: a ring of entries and a condition for readers that follow it."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock  # the device clock: entries carry its time
        self.entries: list[Entry] = []
        self.dropped = 0  # entries ever dropped or cleared: positions stay valid for followers
        self.cond = threading.Condition()

    def write(self, entry: Entry) -> None:
        with self.cond:
            self.entries.append(entry)
            if len(self.entries) > CAPACITY:
                del self.entries[0]
                self.dropped += 1
            self.cond.notify_all()

    def clear(self, buffers: set[str]) -> None:
        with self.cond:
            kept = [e for e in self.entries if e.buffer not in buffers]
            self.dropped += len(self.entries) - len(kept)
            self.entries = kept

    def log(self, priority: str, tag: str, message: str, pid: int = 1000, buffer: str = "main") -> None:
        """Write one line, as a system service or an app would."""
        self.write(Entry(self.clock.now(), pid, pid, priority, tag, message, buffer))
