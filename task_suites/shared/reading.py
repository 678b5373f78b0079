"""Reading an app's saved state back through adb, for the tasks' success conditions.

The Simple Mobile Tools apps keep their settings and small data sets as JSON files in their
private files folder (prefs.json, launchers.json, blocked_numbers.json, ...).
"""

from __future__ import annotations

import json
from typing import Any


def app_data(device: Any, package: str, name: str) -> dict | list | None:
    """The app's JSON data file files/<name>.json, None while it has not been written."""
    out = device.sh(
        f"cat /data/data/{package}/files/{name}.json 2>/dev/null", check=False
    ).strip()  # not yet written: None
    return json.loads(out) if out.startswith(("{", "[")) else None


def app_object(device: Any, package: str, name: str) -> dict:
    """A JSON data file that holds an object (prefs, a library); {} until the app writes it."""
    data = app_data(device, package, name)
    return data if isinstance(data, dict) else {}


def prefs(device: Any, package: str) -> dict:
    """The app's stored settings (prefs.json); {} until it writes any."""
    return app_object(device, package, "prefs")


# Simple-Commons' sort flags, as the apps store them in their `sorting` prefs.
SORT_BY_TITLE, SORT_DESCENDING, SORT_BY_CUSTOM = 2048, 1024, 131072


PREFS = "files/prefs.json"  # the prefs file as durable-state keys name it: f"{PREFS}:sort_by"


def pref(name: str) -> str:
    """The durable-state key of one stored setting, for `changes.value(PACKAGE, pref("sorting"))`."""
    return f"{PREFS}:{name}"


# Prefs the Simple Mobile Tools apps write as the user moves around, whatever the goal.
BOOKKEEPING_PREFS = (
    "last_used_view_pager_page",  # the tab the app reopens on
    "current_note_id",  # the note Notes reopens on
    "was_*_shown",  # one-time hints and warnings, shown once
    "last_created_note_type",  # the kind of note the + dialog offers first
    "last_event_reminder_minutes",  # the reminder a new event starts with
    "last_used_local_event_type_id",  # the event type a new event starts with
)


def ignore_bookkeeping(changes: Any) -> None:
    """Leave the apps' bookkeeping out of the final "nothing else changed" check."""
    for key in BOOKKEEPING_PREFS:
        changes.ignore("com.simplemobiletools.*", f"{PREFS}:{key}")


CALCULATOR_HISTORY = "files/history.json"  # Calculator's history: each computation an = finished


def assert_computed(changes: Any, *steps: tuple[str, str]) -> None:
    """Calculator's last computations were these (formula, result) steps, in order: worked out
    there, each of them, not a step done elsewhere and its result typed in."""
    history = [tuple(h) for h in changes.value("com.simplemobiletools.calculator", CALCULATOR_HISTORY) or []]
    assert history[-len(steps) :] == list(steps), f"Calculator's last computations: {history[-len(steps) :]}"
