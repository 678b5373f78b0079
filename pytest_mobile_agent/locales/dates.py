"""Dates and times as the apps format them in a locale (the virtual device's formats, see
`pytest_mobile_agent.virtual.resources.dates`)."""

from pytest_mobile_agent.virtual.resources.dates import (
    MONTH_KEYS,
    WEEKDAY_KEYS,
    java_date,
    month_name,
    weekday_letter,
    weekday_name,
)

__all__ = ["MONTH_KEYS", "WEEKDAY_KEYS", "java_date", "month_name", "weekday_letter", "weekday_name"]
