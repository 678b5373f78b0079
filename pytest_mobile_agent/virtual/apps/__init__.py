"""The app models installed on a fresh virtual device.

Every module in this package that defines `APPS` (a tuple of App classes) is installed; a new
app is one new module, with no list to edit elsewhere.
"""

from __future__ import annotations

import importlib
import logging
import pkgutil

from pytest_mobile_agent.virtual.ui.app import App


def _discover() -> tuple[type[App], ...]:
    found: list[type[App]] = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        try:
            module = importlib.import_module(f"{__name__}.{info.name}")
        except Exception:  # one broken app model must not keep the device from booting
            logging.getLogger(__name__).exception("app module %s failed to import; its apps are missing", info.name)
            continue
        found.extend(getattr(module, "APPS", ()))
    return tuple(found)


BUILTIN_APPS: tuple[type[App], ...] = _discover()
