"""The ten apps' string tables, and the locale the device draws them in.

The tables in `strings/` are the real apps' resources (`values/` and `values-zh-rCN/` of each
Simple Mobile Tools app and of Simple-Commons, imported by scripts/import_app_strings.py), keyed
by the Android string name. The virtual apps draw their texts through them; the harness
(`pytest_mobile_agent.locales`) reads the same tables to follow a golden path written in English
on a device in another locale.

    normalize("zh_CN") -> "zh-CN"              # a locale tag as Android's persist.sys.locale holds it
    string(package, "ok", "zh-CN") -> "确认"   # a resource by name (app, then Simple-Commons, then en)
    localize("OK", package, "zh-CN") -> "确认"  # an English UI text of the app in the locale
    variants("OK", packages, "zh-CN")          # every form it may take there (for selectors)
    translator(package, "zh-CN")("OK")         # localize, for a whole screen of texts

Texts that are no app string (user content, numbers) are left as they are.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from functools import cache, lru_cache
from pathlib import Path

DEFAULT_LOCALE = "en-US"
# Locale tag -> the column of the string tables it reads (Android falls back to values/).
LOCALES = {"en-US": "en", "zh-CN": "zh-CN"}
COMMONS = "commons"
_STRINGS = Path(__file__).with_name("strings")
_PLACEHOLDER = re.compile(r"%(?:(\d+)\$)?[-#+ 0,(]*\d*(?:\.\d+)?([sdf])")


# Locale.getDefault().getDisplayLanguage(): what an app's Language setting shows.
LANGUAGE_NAMES = {"en-US": "English", "zh-CN": "中文"}


class LocaleError(ValueError):
    """A locale the device models cannot show; the message lists the ones they can."""


def normalize(tag: str) -> str:
    """`zh-CN`, `zh_CN`, `zh-rCN` (a resource qualifier) and `zh-Hans-CN` all name zh-CN."""
    raw = tag.strip().replace("_", "-").replace("-r", "-")
    parts = [p for p in raw.split("-") if p and p.lower() != "hans"]
    canon = "-".join([parts[0].lower(), *(p.upper() for p in parts[1:])]) if parts else ""
    if canon == "en":
        canon = DEFAULT_LOCALE
    if canon == "zh":
        canon = "zh-CN"
    if canon not in LOCALES:
        raise LocaleError(f"locale {tag!r} is not supported; supported: {', '.join(LOCALES)}")
    return canon


def is_default(locale: str) -> bool:
    return LOCALES.get(locale) == "en"


@cache
def _table(package: str) -> dict[str, dict[str, str]]:
    path = _STRINGS / f"{package}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def _tables(package: str) -> tuple[dict[str, dict[str, str]], ...]:
    """The app's own strings first, then Simple-Commons' (which every app links)."""
    return tuple(t for t in (_table(package), _table(COMMONS)) if t)


def _translated(table: dict[str, dict[str, str]], column: str, name: str) -> str | None:
    """A resource in the column; a plural's form by CLDR's rule: Chinese has only `other`."""
    other = table.get(column, {})
    if name in other:
        return other[name]
    base, _, quantity = name.partition("#")
    return other.get(f"{base}#other") if quantity and column == "zh-CN" else None


def string(package: str, name: str, locale: str = DEFAULT_LOCALE) -> str:
    """The resource `name` as the app shows it in `locale` (English where it has no translation,
    as Android falls back to values/). KeyError names the resource if no table has it."""
    column = LOCALES[normalize(locale)]
    for table in _tables(package):
        if name in table.get("en", {}):
            return _translated(table, column, name) or table["en"][name]
    raise KeyError(f"no string resource {name!r} in {package} or Simple-Commons")


def _key_rank(name: str, text: str) -> tuple[int, int, str]:
    """Where one English text has several resources: the one named after the text, then the
    shortest name (`camera` before `camera_short`)."""
    snake = re.sub(r"\W+", "_", text.lower()).strip("_")
    return (0 if name.split("#")[0] == snake else 1, len(name), name)


@cache
def _index(package: str, column: str) -> tuple[dict[str, list[str]], list[tuple[re.Pattern[str], str]]]:
    """English text -> its translations in `column` (best first), and the format strings as
    patterns with their translation."""
    exact: dict[str, list[str]] = {}
    patterns: list[tuple[re.Pattern[str], str]] = []
    for table in _tables(package):
        en = table.get("en", {})
        other = {name: t for name in en if (t := _translated(table, column, name)) is not None}
        names: dict[str, list[str]] = {}
        for name, text in en.items():
            if name in other:
                names.setdefault(text, []).append(name)
        for text, found in names.items():
            forms = exact.setdefault(text, [])
            for name in sorted(found, key=lambda n: _key_rank(n, text)):
                if other[name] not in forms:
                    forms.append(other[name])
            if _PLACEHOLDER.search(text):
                patterns.append((_pattern(text), other[min(found, key=lambda n: _key_rank(n, text))]))
    return exact, patterns


def _pattern(template: str) -> re.Pattern[str]:
    out, pos = [], 0
    for m in _PLACEHOLDER.finditer(template):
        out.append(re.escape(template[pos : m.start()]))
        out.append(r"(-?[\d.,]+)" if m.group(2) in "df" else "(.+?)")
        pos = m.end()
    out.append(re.escape(template[pos:]))
    return re.compile("".join(out), re.S)


def _fill(template: str, args: Sequence[str]) -> str:
    counter = iter(range(len(args)))

    def arg(m: re.Match[str]) -> str:
        index = int(m.group(1)) - 1 if m.group(1) else next(counter, len(args))
        return args[index] if index < len(args) else m.group(0)

    return _PLACEHOLDER.sub(arg, template)


def variants(text: str, packages: Iterable[str], locale: str) -> list[str]:
    """The forms an English UI text of these apps takes in `locale`, best first; [text] itself
    where it is no app string (user content) or the locale is English."""
    column = LOCALES.get(locale) or LOCALES[normalize(locale)]
    if column == "en" or not text:
        return [text]
    return list(_variants(text, tuple(packages), column))


@lru_cache(maxsize=8192)  # screens repeat their texts frame after frame
def _variants(text: str, packages: tuple[str, ...], column: str) -> tuple[str, ...]:
    found: list[str] = []
    for package in packages:
        exact, patterns = _index(package, column)
        forms = exact.get(text)
        if forms is None:
            forms = [_fill(zh, m.groups()) for rx, zh in patterns if (m := rx.fullmatch(text))][:1]
        found += [f for f in forms if f not in found]
    return tuple(found or [text])


def localize(text: str, package: str, locale: str) -> str:
    """An English UI text of the app as the app shows it in `locale` (unchanged if it is none)."""
    return variants(text, (package,), locale)[0]


def translator(package: str, locale: str) -> Callable[[str], str]:
    """`localize` for one app and locale, for many texts (a whole screen)."""
    column, packages = LOCALES[normalize(locale)], (package,)
    if column == "en":
        return lambda text: text
    return lambda text: _variants(text, packages, column)[0] if text else text
