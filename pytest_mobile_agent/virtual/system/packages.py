"""The package manager: preinstalled app models, installed APKs, permissions, app data.

A package is either one of the modelled apps (it has activities and a UI) or an APK installed
through `pm install` (recorded with its manifest's package name and version). `pm clear` wipes
the data dir, so an app comes back in its fresh-install state.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Protocol

from pytest_mobile_agent.virtual.system.apk import InvalidApk, read_manifest
from pytest_mobile_agent.virtual.system.window import WindowManager
from pytest_mobile_agent.virtual.ui.app import App, Context


@dataclass
class PackageRecord:
    name: str
    version_code: int = 1
    version_name: str | None = "1.0"  # None: an installed APK's manifest has no versionName
    system: bool = False
    apk: str = ""  # device path of the installed APK
    granted: list[str] = field(default_factory=list)
    services: list[str] = field(default_factory=list)


# What apps name of the platform to get all-files access: the permission, and the Settings screen
# that grants it (where Settings.ACTION_MANAGE_APP_ALL_FILES_ACCESS_PERMISSION leads).
MANAGE_EXTERNAL_STORAGE = "android.permission.MANAGE_EXTERNAL_STORAGE"
SETTINGS_PACKAGE = "com.android.settings"
ALL_FILES_ACCESS = ".Settings$AppManageExternalStorageActivity"
PROVIDER_PACKAGES = {
    "com.android.providers.contacts": "ContactsProvider",
    "com.android.providers.telephony": "TelephonyProvider",
}


class PackageError(Exception):
    pass


class Host(Context, Protocol):
    """What the package manager needs of its device: the context it gives the apps, whose
    window manager ends a stopped app's tasks."""

    @property
    def wm(self) -> WindowManager: ...


class PackageManager:
    def __init__(self, device: Host) -> None:
        self.device = device
        self._db = device.fs.host("/data/system/packages.json")
        self.records: dict[str, PackageRecord] = {}
        self.models: dict[str, type[App]] = {}
        self._live: dict[str, App] = {}

    def install_builtin(self, apps: Sequence[type[App]]) -> None:
        """The system image's apps: their models, and their records unless /data has them."""
        for cls in apps:
            self.models[cls.package] = cls
        if self._db.exists():
            for raw in json.loads(self._db.read_text()):
                record = PackageRecord(**raw)
                self.records[record.name] = record
            return
        for cls in apps:
            apk = f"/{'system' if cls.system else 'data'}/app/{cls.package}/base.apk"
            self.records[cls.package] = PackageRecord(cls.package, cls.version_code, cls.version_name, cls.system, apk)
        # The providers' own packages own their databases: `pm clear` of one empties its data.
        for name, apk in PROVIDER_PACKAGES.items():
            self.records[name] = PackageRecord(name, 33, "13", True, f"/system/priv-app/{apk}/{apk}.apk")
        self._save()

    def _save(self) -> None:
        self._db.write_text(json.dumps([asdict(r) for r in self.records.values()]))

    # -- queries -----------------------------------------------------------------------------
    def is_installed(self, name: str) -> bool:
        return name in self.records

    def app(self, name: str) -> App:
        """The live app object (made on first use, so state is read from its data dir)."""
        if name not in self.records or name not in self.models:
            raise PackageError(f"Unknown package: {name}")
        live = self._live.get(name)
        if live is None:
            live = self._live[name] = self.models[name](self.device)
        return live

    def launchable(self) -> list[App]:
        return [
            self.app(n) for n in self.records if n in self.models and self.models[n].label and not self.models[n].system
        ]

    def home_app(self) -> App:
        """The app whose activity HOME shows (the launcher)."""
        return self.app(next(name for name, model in self.models.items() if model.home))

    def granted(self, name: str, permission: str) -> bool:
        record = self.records.get(name)
        return record is not None and permission in record.granted

    # -- changes -----------------------------------------------------------------------------
    def stop(self, name: str) -> None:
        """Force-stop: no task, no live object; the next start reads state from disk."""
        self.device.wm.force_stop(name)
        self._live.pop(name, None)

    def clear(self, name: str) -> None:
        if name not in self.records:
            raise PackageError(f"Unknown package: {name}")
        self.stop(name)
        shutil.rmtree(self.device.fs.host(f"/data/data/{name}"), ignore_errors=True)

    def install(self, apk_path: str, *, replace: bool = True) -> PackageRecord:
        host = self.device.fs.host(apk_path)
        if not host.is_file():
            raise PackageError(f"Failure [INSTALL_FAILED_INVALID_URI: {apk_path}]")
        try:
            info = read_manifest(host)
        except InvalidApk as exc:
            raise PackageError(f"Failure [INSTALL_PARSE_FAILED_NOT_APK: {exc}]") from exc
        old = self.records.get(info.package)
        if old and not replace:
            raise PackageError(f"Failure [INSTALL_FAILED_ALREADY_EXISTS: {info.package}]")
        if old and info.version_code < old.version_code:
            raise PackageError("Failure [INSTALL_FAILED_VERSION_DOWNGRADE]")
        target = f"/data/app/{info.package}/base.apk"
        self.device.fs.write(target, host.read_bytes())
        self.stop(info.package)
        self.records[info.package] = PackageRecord(
            info.package,
            info.version_code,
            info.version_name,
            False,
            target,
            old.granted if old else [],
            list(info.services),
        )
        self._save()
        return self.records[info.package]

    def uninstall(self, name: str) -> None:
        record = self.records.get(name)
        if record is None or record.system:
            raise PackageError("Failure [DELETE_FAILED_INTERNAL_ERROR]")
        self.clear(name)
        shutil.rmtree(self.device.fs.host(f"/data/app/{name}"), ignore_errors=True)
        del self.records[name]
        self._save()

    def grant(self, name: str, permission: str, granted: bool = True) -> None:
        record = self.records.get(name)
        if record is None:
            raise PackageError(f"Unknown package: {name}")
        if granted and permission not in record.granted:
            record.granted.append(permission)
        elif not granted and permission in record.granted:
            record.granted.remove(permission)
        self._save()
