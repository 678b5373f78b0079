"""Dates, times and reminder intervals as Simple Calendar words them (helpers/Formatter.kt, en-US),
in the locale the screen is drawn in."""

from __future__ import annotations

from datetime import date, datetime

from pytest_mobile_agent.virtual.apps.calendar.store import REMINDER_OFF
from pytest_mobile_agent.virtual.apps.commons.dates import java_date
from pytest_mobile_agent.virtual.resources import dates as locale_dates
from pytest_mobile_agent.virtual.ui.app import App
from pytest_mobile_agent.virtual.ui.localize import drawing_locale

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def month_name(month: int) -> str:
    """getMonthName: the `months` string array, in the locale the screen is drawn in."""
    return locale_dates.month_name(month, drawing_locale())


def weekday_name(weekday: int) -> str:
    return locale_dates.weekday_name(weekday, drawing_locale())


def weekday_letter(weekday: int) -> str:
    return locale_dates.weekday_letter(weekday, drawing_locale())


def time_text(app: App, when: datetime) -> str:
    return java_date("HH:mm" if app.pref("use_24_hour_format", False) else "hh:mm a", when)


def date_text(day: date, today: date) -> str:
    """getDateFromCode: "May 15" ("五月 15"), with the year when it is not the current one."""
    text = f"{month_name(day.month)} {day.day}"
    return text if day.year == today.year else f"{text} {day.year}"


def day_title(day: date, today: date) -> str:
    return f"{date_text(day, today)} ({java_date('EEE', day)})"


def month_title(day: date, today: date) -> str:
    name = month_name(day.month)
    return name if day.year == today.year else f"{name} {day.year}"


def minutes_text(minutes: int, before: bool = True) -> str:
    """getFormattedMinutes: "10 minutes before", "1 hour before", "No reminder"."""
    if minutes == REMINDER_OFF:
        return "No reminder"
    if minutes == 0:
        return "At start" if before else "0 minutes"
    for unit, size in (("day", 1440), ("hour", 60), ("minute", 1)):
        if minutes % size == 0:
            n = minutes // size
            text = f"{n} {unit}{'' if n == 1 else 's'}"
            return f"{text} before" if before else text
    return str(minutes)
