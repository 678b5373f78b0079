"""The app models installed on a fresh virtual device."""

from __future__ import annotations

from .base import App
from .calculator import Calculator
from .launcher import Home

BUILTIN_APPS: tuple[type[App], ...] = (Home, Calculator)
