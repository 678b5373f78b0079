"""The app models installed on a fresh virtual device.

Every module in this package that defines `APPS` (a tuple of App classes) is installed; a new
app is one new module, with no list to edit elsewhere.
"""

from __future__ import annotations

import importlib
import pkgutil

from .base import App


def _discover() -> tuple[type[App], ...]:
    found: list[type[App]] = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        found.extend(getattr(module, "APPS", ()))
    return tuple(found)


BUILTIN_APPS: tuple[type[App], ...] = _discover()
