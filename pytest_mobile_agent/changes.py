"""What the agent changed on the device, for task bodies: the `changes` fixture's object.

The harness records the durable state (device/durable_state.py) when the agent starts, after
the preconditions are seeded and the app launched. A body asks for the change it wanted, and
each change it asks about is declared; the plugin then fails the task on any change left
undeclared, so "the goal and something nobody asked for" fails, and a body that declares
nothing asserts that nothing durable changed (show, check, search, open).

    def test_create_contact(no_yuzai, changes):
        contact = changes.added("contacts")            # exactly one new contact
        assert contact["name.data2"] == "Yuzai"        # the first name, not the surname

    def test_sort(changes):
        assert changes.value(CONTACTS, "files/prefs.json:sort_by") == "date_created"
        changes.allow(CONTACTS, "files/prefs.json:sort_descending")  # may change, or not
"""

from __future__ import annotations

from typing import Any

from pytest_mobile_agent.device.durable_state import Change, DurableState, StateDiff, capture_script, parse_capture


class Changes:
    def __init__(self, device: Any) -> None:
        self.device = device
        self.before: DurableState | None = None
        self.declared: list[Change] = []
        self.ignored: list[tuple[str, str | None]] = []
        self._last: tuple[str, DurableState] | None = None

    # -- the harness's side --------------------------------------------------------------------
    def start(self) -> None:
        """The baseline: called by the harness just before the agent's first step."""
        self.before = self._now()
        self.declared = []

    def unexpected(self) -> StateDiff:
        """The changes no body call declared and no `ignore` covers."""
        left = self.diff.without(self.declared)
        for area, key in self.ignored:
            left = left.without(left.where(area, key=key))
        return left

    # -- the body's side -----------------------------------------------------------------------
    @property
    def diff(self) -> StateDiff:
        """Every durable change since the agent started (declares nothing)."""
        if self.before is None:
            raise RuntimeError("the durable state is recorded when the episode starts; read `changes` in the body")
        return self.before.diff(self._now())

    def where(self, area: str | None = None, kind: str | None = None, key: str | None = None) -> StateDiff:
        """The changes that match (globs for area and key), all declared: they may happen."""
        found = self.diff.where(area, kind, key)
        self.declared.extend(found)
        return found

    def allow(self, area: str, key: str | None = None, kind: str | None = None) -> None:
        """Let changes that match happen (or not): app bookkeeping that is no part of the goal."""
        self.where(area, kind, key)

    def ignore(self, area: str, key: str | None = None) -> None:
        """Never count changes that match (globs) for this task: an app's bookkeeping (the tab it
        reopens on, a one-time hint shown). A suite's autouse fixture says it once for all tasks."""
        self.ignored.append((area, key))

    def added(self, area: str, key: str | None = None) -> Any:
        """The one item added in `area` (and matching `key`); its value."""
        return self._one(area, "added", key).after

    def removed(self, area: str, key: str | None = None) -> Any:
        """The one item removed from `area` (and matching `key`); its old value."""
        return self._one(area, "removed", key).before

    def changed(self, area: str, key: str | None = None) -> Change:
        """The one item of `area` changed in place (same key: same contact, same file path)."""
        return self._one(area, "changed", key)

    def value(self, area: str, key: str) -> Any:
        """The new value at `key` (a setting: `files/prefs.json:sort_by`), added or changed."""
        found = self.where(area, key=key)
        assert found and all(c.kind != "removed" for c in found), (
            f"{area} {key}: not set (changes: {self._context(area)})"
        )
        return found.changes[-1].after

    def moved(self, area: str, old: str, new: str) -> Any:
        """`old` is gone and `new` holds exactly its content (a rename keeps the content)."""
        gone = self._one(area, "removed", old)
        came = self._one(area, "added", new)
        assert gone.before == came.after, f"{old} -> {new}: the content changed\n{self._context(area)}"
        return came.after

    def nothing_else(self) -> None:
        """Assert now (the harness does it after the body anyway) that no undeclared change happened."""
        left = self.unexpected()
        if left:
            summary = "; ".join(f"{c.area} {c.kind} {c.key}" for c in left)
            raise AssertionError(f"changes nobody asked for: {summary}\n{left}")

    def _one(self, area: str, kind: str, key: str | None) -> Change:
        found = self.where(area, kind, key)
        what = f"{area}: one item {kind}" + (f" matching {key!r}" if key else "")
        assert len(found) == 1, f"{what}, found {len(found)}\n{self._context(area)}"
        return found.changes[0]

    def _context(self, area: str) -> str:
        return str(self.diff.where(area))

    def _now(self) -> DurableState:
        """The state now; inside `device.reading()` the same shell output is parsed only once."""
        out = self.device.sh(capture_script(), check=False)  # the files it reads may hold any text
        if self._last is None or self._last[0] != out:
            self._last = (out, parse_capture(out))
        return self._last[1]
