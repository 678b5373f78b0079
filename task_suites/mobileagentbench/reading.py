"""Reading an app's saved state back through adb, for the tasks' success conditions.

The Simple Mobile Tools apps keep their settings and small data sets as JSON files in their
private files folder (prefs.json, launchers.json, blocked_numbers.json, ...).
"""

from __future__ import annotations

import json
from typing import Any


def app_data(device: Any, package: str, name: str) -> dict | list | None:
    """The app's JSON data file files/<name>.json, None while it has not been written."""
    out = device.sh(f"cat /data/data/{package}/files/{name}.json 2>/dev/null").strip()
    return json.loads(out) if out.startswith(("{", "[")) else None


def app_object(device: Any, package: str, name: str) -> dict:
    """A JSON data file that holds an object (prefs, a library); {} until the app writes it."""
    data = app_data(device, package, name)
    return data if isinstance(data, dict) else {}


def prefs(device: Any, package: str) -> dict:
    """The app's stored settings (prefs.json); {} until it writes any."""
    return app_object(device, package, "prefs")


PREFS = "files/prefs.json"  # the prefs file as durable-state keys name it: f"{PREFS}:sort_by"


def pref(name: str) -> str:
    """The durable-state key of one stored setting, for `changes.value(PACKAGE, pref("sorting"))`."""
    return f"{PREFS}:{name}"
