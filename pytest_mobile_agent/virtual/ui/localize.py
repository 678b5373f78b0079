"""The apps' texts in the device's locale.

The app models are written with the English texts of the real apps' `values/strings.xml`; each
tree they build is drawn through the string tables of `pytest_mobile_agent.locales` before
layout, so a zh-CN device shows the real apps' `values-zh-rCN` strings (texts, content
descriptions and hints). What is no app string (names, numbers, typed text) stays as it is.
"""

from __future__ import annotations

from ...locales import is_default, localize
from .view import EDIT, View


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
