"""Locales: the device's language, and the ten apps' strings in it.

The string tables and date formats are the virtual device's (`pytest_mobile_agent.virtual.resources`:
the real apps' `values/` and `values-zh-rCN/` of each Simple Mobile Tools app and of
Simple-Commons, keyed by the Android string name); the virtual apps draw their texts through
them, and the harness uses the same tables to follow a golden path written in English on a device in another
locale (the oracle taps "OK" as "确认" on a zh-CN device). The API:

    normalize("zh_CN") -> "zh-CN"              # a locale tag as Android's persist.sys.locale holds it
    string(package, "ok", "zh-CN") -> "确认"   # a resource by name (app, then Simple-Commons, then en)
    localize("OK", package, "zh-CN") -> "确认"  # an English UI text of the app in the locale
    variants("OK", packages, "zh-CN")          # every form it may take there (for selectors)
    translator(package, "zh-CN")("OK")         # localize, for a whole screen of texts
    localize_action(action, ui, packages, locale)  # a golden-path action whose selector matches the screen
    dates.java_date("hh:mm a", when, "zh-CN") -> "03:04 下午"  # and month_name, weekday_name, ...

Tasks pin a locale with `@task(locale="zh-CN")`; `--mobile-locale` (ini `mobile_locale`) sets it
for the whole run and wins over the task's. Texts that are no app string (user content, numbers)
are left as they are. In a task body, on a device in zh-CN: `ui.find(text="About")` and
`events.clicked(text="OK")` also match the zh-CN forms, `ui.tr("June")` gives "六月", and
`device.locale` is the locale the harness set.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from pytest_mobile_agent.virtual.resources.strings import (
    COMMONS,
    DEFAULT_LOCALE,
    LANGUAGE_NAMES,
    LOCALES,
    LocaleError,
    is_default,
    localize,
    normalize,
    string,
    translator,
    variants,
)

if TYPE_CHECKING:
    from pytest_mobile_agent.actions import Action
    from pytest_mobile_agent.device.ui_tree import UiTree

__all__ = [
    "COMMONS",
    "DEFAULT_LOCALE",
    "LANGUAGE_NAMES",
    "LOCALES",
    "LocaleError",
    "is_default",
    "localize",
    "localize_action",
    "normalize",
    "string",
    "translator",
    "variants",
]

_TEXT_FIELDS = ("text", "description", "textContains", "descriptionContains")


def localize_action(action: Action, ui: UiTree | None, packages: Sequence[str], locale: str) -> Action:
    """A golden-path action written against the English apps, for a device in `locale`: each
    text or description in its selector becomes the form the screen shows (the first variant
    that matches an element), so the replay taps the same element a person would."""
    selector = action.selector
    if selector is None or is_default(normalize(locale)) or ui is None:
        return action
    if ui.select(selector) is not None:
        return action  # user content, or a text no table translates
    shown = tuple(dict.fromkeys((*packages, *(n.package for n in ui.nodes() if n.package))))
    choices = [selector]
    for name in _TEXT_FIELDS:
        value = getattr(selector, name)
        if value:
            choices = [replace(s, **{name: form}) for s in choices for form in variants(value, shown, locale)]
    match = next((s for s in choices if ui.select(s) is not None), choices[0])
    return replace(action, selector=match)
