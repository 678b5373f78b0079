"""Sizes and durations as commons' extensions word them (Long.formatSize, Int.getFormattedDuration)."""

from __future__ import annotations


def format_size(size: int) -> str:
    """commons Long.formatSize: 1024-based units ("kB"), DecimalFormat("#,##0.#")."""
    if size <= 0:
        return "0 B"
    units = ("B", "kB", "MB", "GB", "TB")
    i = 0
    value = float(size)
    while value >= 1024 and i < len(units) - 1:
        value /= 1024
        i += 1
    text = f"{value:,.1f}".rstrip("0").rstrip(".")
    return f"{text} {units[i]}"


def duration_text(seconds: int) -> str:
    """commons Int.getFormattedDuration: mm:ss, with hours when there are any."""
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h:02d}:{m:02d}:{s:02d}" if h else f"{m:02d}:{s:02d}"
