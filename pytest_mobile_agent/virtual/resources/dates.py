"""Dates and times as the apps format them in a locale.

Month and weekday names the apps take from their string resources (Simple-Commons' `january`,
`monday`, ...) come from the string tables; the fields of java.text patterns ("MMMM yyyy",
"hh:mm a", "EEE") follow Android's ICU data for the locale: zh-CN writes "一月", "1月", "星期一",
"周一" and "上午"/"下午". Numbers need nothing: zh-CN writes digits, "." and "," as en-US does.
"""

from __future__ import annotations

import re
from datetime import date, datetime

from pytest_mobile_agent.virtual.resources.strings import COMMONS, LOCALES, normalize, string

MONTH_KEYS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
WEEKDAY_KEYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# ICU's format-context names, by table column.
_ICU = {
    "en": {
        "EEEE": ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
        "EEE": ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"),
        "MMMM": (
            "January",
            "February",
            "March",
            "April",
            "May",
            "June",
            "July",
            "August",
            "September",
            "October",
            "November",
            "December",
        ),
        "MMM": ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"),
        "a": ("AM", "PM"),
    },
    "zh-CN": {
        "EEEE": ("星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期日"),
        "EEE": ("周一", "周二", "周三", "周四", "周五", "周六", "周日"),
        "MMMM": ("一月", "二月", "三月", "四月", "五月", "六月", "七月", "八月", "九月", "十月", "十一月", "十二月"),
        "MMM": tuple(f"{m}月" for m in range(1, 13)),
        "a": ("上午", "下午"),
    },
}


def month_name(month: int, locale: str) -> str:
    """The app's own month name (Simple-Commons' string array of `january`...)."""
    return string(COMMONS, MONTH_KEYS[month - 1], locale)


def weekday_name(weekday: int, locale: str) -> str:
    """The app's own weekday name (Simple-Commons' `monday`...), Monday = 0."""
    return string(COMMONS, WEEKDAY_KEYS[weekday], locale)


def weekday_letter(weekday: int, locale: str) -> str:
    """A week view's column letter (Simple-Commons' `monday_letter`...: "M", "一")."""
    return string(COMMONS, f"{WEEKDAY_KEYS[weekday]}_letter", locale)


def java_date(pattern: str, when: date | datetime, locale: str) -> str:
    """Format with a java.text / Android DateFormat pattern ("dd.MM.yyyy", "hh:mm a", "EEE")."""
    names = _ICU[LOCALES[normalize(locale)]]
    hour = getattr(when, "hour", 0)
    minute, second = getattr(when, "minute", 0), getattr(when, "second", 0)

    def field(m: re.Match[str]) -> str:
        tok = m.group(0)
        letter, width = tok[0], len(tok)
        if letter == "E":
            return names["EEEE" if width >= 4 else "EEE"][when.weekday()]
        if letter == "M" and width >= 3:
            return names["MMMM" if width >= 4 else "MMM"][when.month - 1]
        if letter == "a":
            return names["a"][hour >= 12]
        if letter == "y":
            return f"{when.year % 100:02d}" if width == 2 else str(when.year)
        value = {"M": when.month, "d": when.day, "H": hour, "h": hour % 12 or 12, "m": minute, "s": second}.get(letter)
        return tok if value is None else f"{value:0{width}d}"

    return re.sub(r"([A-Za-z])\1*", field, pattern)
