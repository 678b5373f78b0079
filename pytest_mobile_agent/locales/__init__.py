"""Locales: the device's language, and the ten apps' strings in it.

The string tables and date formats are the virtual device's (`pytest_mobile_agent.virtual.resources`:
the real apps' `values/` and `values-zh-rCN/` of each Simple Mobile Tools app and of
Simple-Commons, keyed by the Android string name); the virtual apps draw their texts through
them, and the harness uses the same tables to follow a golden path written in English on a device in another
locale (the oracle taps "OK" as "确认" on a zh-CN device: device/ui_tree.py's
`localize_action`). The API:

    normalize("zh_CN") -> "zh-CN"              # a locale tag as Android's persist.sys.locale holds it
    string(package, "ok", "zh-CN") -> "确认"   # a resource by name (app, then Simple-Commons, then en)
    localize("OK", package, "zh-CN") -> "确认"  # an English UI text of the app in the locale
    variants("OK", packages, "zh-CN")          # every form it may take there (for selectors)
    translator(package, "zh-CN")("OK")         # localize, for a whole screen of texts
    dates.java_date("hh:mm a", when, "zh-CN") -> "03:04 下午"  # and month_name, weekday_name, ...

Tasks pin a locale with `@task(locale="zh-CN")`; `--mobile-locale` (ini `mobile_locale`) sets it
for the whole run and wins over the task's. Texts that are no app string (user content, numbers)
are left as they are. In a task body, on a device in zh-CN: `ui.find(text="About")` and
`events.clicked(text="OK")` also match the zh-CN forms, `ui.tr("June")` gives "六月", and
`device.locale` is the locale the harness set.
"""

from __future__ import annotations

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

__all__ = [
    "COMMONS",
    "DEFAULT_LOCALE",
    "LANGUAGE_NAMES",
    "LOCALES",
    "LocaleError",
    "is_default",
    "localize",
    "normalize",
    "string",
    "translator",
    "variants",
]
