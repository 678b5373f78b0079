"""The optional extras: model clients, OCR and plots are not part of the core install, and a
feature that needs one says which to install. pyproject.toml's [project.optional-dependencies]
is the list; this is where the code asks for them."""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

# import name -> (distribution, extra)
PACKAGES = {
    "openai": ("openai", "models"),
    "anthropic": ("anthropic", "anthropic"),
    "google.genai": ("google-genai", "gemini"),
    "pyspng": ("pyspng", "models"),
    "rapidocr_onnxruntime": ("rapidocr-onnxruntime", "judges"),
    "matplotlib": ("matplotlib", "reports"),
}


class MissingExtra(ImportError):
    """A feature's package is not installed: the message names the extra that brings it."""


def hint(module: str) -> str:
    distribution, extra = PACKAGES[module]
    return f"{distribution} is not installed: pip install 'pytest-mobile-agent[{extra}]'"


def available(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:  # an import hook that refuses it
        return False


def require(module: str, feature: str) -> ModuleType:
    """`module`, imported; else a MissingExtra naming the feature and the extra to install."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingExtra(f"{feature} needs {hint(module)}") from exc
