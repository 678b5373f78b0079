"""The apps' texts in the device's locale.

The app models are written with the English texts of the real apps' `values/strings.xml`; each
tree they build is drawn through the string tables of `pytest_mobile_agent.locales` before
layout, so a zh-CN device shows the real apps' `values-zh-rCN` strings (texts, content
descriptions and hints). What is no app string (names, numbers, typed text) stays as it is.
Dates and times are formatted while the tree is built, in the locale `drawing()` sets.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from ...locales import DEFAULT_LOCALE, is_default, localize
from .view import EDIT, View

_DRAWING: ContextVar[str] = ContextVar("drawing_locale", default=DEFAULT_LOCALE)


@contextmanager
def drawing(locale: str) -> Iterator[None]:
    """While an app builds a tree: the locale its dates and times are formatted in."""
    token = _DRAWING.set(locale)
    try:
        yield
    finally:
        _DRAWING.reset(token)


def drawing_locale() -> str:
    return _DRAWING.get()


def localize_tree(root: View, package: str, locale: str) -> View:
    if is_default(locale):
        return root
    for v in root.walk():
        if v.text and v.cls != EDIT:  # an EditText's text is what the user typed
            v.text = localize(v.text, package, locale)
        if v.desc:
            v.desc = localize(v.desc, package, locale)
        if v.hint:
            v.hint = localize(v.hint, package, locale)
    return root
