"""The app models installed on a fresh virtual device.

One package per Simple Mobile Tools app (`calendar/`, `notes/`, ...), whose `app` module defines
the installed App class; `commons/` holds what they share through Simple-Commons, `system/` the
system image's own apps (home screen, resolver, Settings, ADB Keyboard, stubs).

Every module below this package that defines `APPS` (a tuple of App classes) is installed, in
the order of their dotted names; a new app is one new package, with no list to edit elsewhere.
"""

from __future__ import annotations

import importlib
import logging
import pkgutil

from pytest_mobile_agent.virtual.ui.app import App

log = logging.getLogger(__name__)


def _discover() -> tuple[type[App], ...]:
    found: list[type[App]] = []

    def failed(name: str) -> None:
        log.exception("app package %s failed to import; its apps are missing", name)

    for info in pkgutil.walk_packages(__path__, f"{__name__}.", onerror=failed):
        try:
            module = importlib.import_module(info.name)
        except Exception:  # one broken app model must not keep the device from booting
            log.exception("app module %s failed to import; its apps are missing", info.name)
            continue
        found.extend(getattr(module, "APPS", ()))
    return tuple(found)


BUILTIN_APPS: tuple[type[App], ...] = _discover()
