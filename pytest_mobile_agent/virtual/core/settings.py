"""The device's settings: what `settings get|put|delete` and the settings provider read and write."""

from __future__ import annotations

import json
from collections.abc import Callable

from pytest_mobile_agent.virtual.core.fs import FileSystem


class Settings:
    """`settings` namespaces (system, secure, global), persisted under /data/system."""

    NAMESPACES = ("system", "secure", "global")
    DEFAULTS = {
        "system": {
            "screen_brightness": "102",
            "font_scale": "1.0",
            "show_touches": "0",
            "pointer_location": "0",
            "time_12_24": "12",
        },
        "secure": {
            "accessibility_enabled": "0",
            "enabled_accessibility_services": "",
            "default_input_method": "com.android.inputmethod.latin/.LatinIME",
            "android_id": "9774d56d682e549c",
        },
        "global": {
            "adb_enabled": "1",
            "airplane_mode_on": "0",
            "auto_time": "1",
            "window_animation_scale": "1.0",
            "transition_animation_scale": "1.0",
            "animator_duration_scale": "1.0",
            "stay_on_while_plugged_in": "0",
        },
    }

    def __init__(self, fs: FileSystem) -> None:
        self.on_change: list[Callable[[str, str], None]] = []  # (namespace, key) observers
        self._path = fs.host("/data/system/settings.json")
        if self._path.exists():
            self.data: dict[str, dict[str, str]] = json.loads(self._path.read_text())
        else:
            self.data = {ns: dict(values) for ns, values in self.DEFAULTS.items()}

    def get(self, namespace: str, key: str) -> str | None:
        return self.data[namespace].get(key)

    def put(self, namespace: str, key: str, value: str) -> None:
        self.data[namespace][key] = value
        self._save()
        self._notify(namespace, key)

    def delete(self, namespace: str, key: str) -> bool:
        found = self.data[namespace].pop(key, None) is not None
        self._save()
        self._notify(namespace, key)
        return found

    def _notify(self, namespace: str, key: str) -> None:
        for observer in self.on_change:
            observer(namespace, key)

    def _save(self) -> None:
        self._path.write_text(json.dumps(self.data))
