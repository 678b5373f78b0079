"""Simple Calendar's MonthView.onDraw: the week day letters, the day numbers and the event
chips of a month, drawn on one canvas (none of it is in the view hierarchy, as on a phone).

Read from Simple-Calendar's views/MonthView.kt: letters on a band twice the normal text size
(14sp) high, day numbers centred at the top of each of the 6 x 7 cells (today on a filled
circle, other months' days at half alpha), then each event as a rounded chip (8 px corners) of
its colour under its first day, 12sp titles in the contrast colour, cut to the chip's width
the way MonthView does it (the first `len(TextUtils.ellipsize(...))` characters, with no
ellipsis drawn), a task icon before a task's title, and "..." where a cell runs out of room.

In the "Monthly and daily view" (isMonthDayView) no chips are drawn: a dot of the first
event's colour marks each day that has events.

The app describes the month in `View.canvas` (see `month_canvas_data` in apps/calendar/main.py):
(letters, today's column or -1, days as (number, is_today, this_month), events as
(start_index, days, title, colour, is_task, dimmed) sorted as MonthView.groupAllEvents does,
dots instead of chips).
"""

from __future__ import annotations

from pytest_mobile_agent.virtual.ui.render.canvas import Canvas
from pytest_mobile_agent.virtual.ui.render.colors import RGB, ink_on, mix, parse_color
from pytest_mobile_agent.virtual.ui.view import View

CORNER_PX = 8  # MonthView.BG_CORNER_RADIUS, in pixels
MEDIUM_ALPHA = 0.5  # Simple-Commons' MEDIUM_ALPHA
HIGHER_ALPHA = 0.75


def draw_month(p: Canvas, v: View, text: RGB, primary: RGB, bg: RGB) -> None:
    letters, today_col, days, events, dots = v.canvas
    x0, y0, x1, y1 = v.bounds
    normal, small = p.dp(14), p.dp(12)
    letters_h = normal * 2
    pad = max(1, int(p.s))  # smallPadding = (int) density
    day_w = (x1 - x0) / 7
    day_h = (y1 - y0 - letters_h) / 6
    for i, letter in enumerate(letters):
        p.text_at(
            round(x0 + (i + 0.5) * day_w),
            round(y0 + letters_h * 0.7),
            letter,
            normal,
            primary if i == today_col else text,
            "center",
        )
    offsets = [0.0] * 42
    marked: dict[int, RGB] = {}
    for start, count, _title, color_name, _task, _dim in events:
        for i in range(start, min(start + count, 42)):
            marked.setdefault(i, parse_color(color_name) or primary)
    for i, (number, is_today, this_month) in enumerate(days):
        row, col = divmod(i, 7)
        y = y0 + row * day_h + letters_h
        cx = round(x0 + col * day_w + day_w / 2)
        color = text
        if is_today:
            circle = primary if this_month else mix(primary, bg, MEDIUM_ALPHA)
            p.disc(cx, round(y + normal * 0.7), round(normal * 1.6), circle)
            color = ink_on(primary)
        if not this_month:
            color = mix(color, bg, MEDIUM_ALPHA)
        if dots and i in marked:
            p.disc(cx, round(y + normal * 0.7 * 1.25 + normal / 2), round(normal * 0.4), marked[i])
        p.text_at(cx, round(y + normal), str(number), normal, color, "center")
        offsets[i] = letters_h + normal * 2
    if dots:
        return

    def chip(start: int, count: int, title: str, color_name: str, is_task: bool, dim: bool) -> None:
        span = min(count, 7 - start % 7)
        offset = max(offsets[start + i] for i in range(span))
        x = x0 + start % 7 * day_w
        y = y0 + start // 7 * day_h
        if offset - small * 2 > day_h:
            p.text_at(round(x + day_w / 2), round(y + offset - small / 2), "...", normal, text, "center")
            return
        left, top = x + pad, y + offset + pad - small
        right, bottom = x - pad + day_w * count, y + offset + pad * 2
        if right > x1:
            right = x1 - pad
            wrapped = (start // 7 + 1) * 7
            if wrapped < 42:
                chip(wrapped, count - (wrapped - start), title, color_name, is_task, dim)
        fill = parse_color(color_name) or primary
        ink = ink_on(fill)
        if dim:
            fill = mix(fill, bg, MEDIUM_ALPHA)
            ink = mix(ink, fill, HIGHER_ALPHA)
        p.rrect((round(left), round(top), round(right), round(bottom)), CORNER_PX, fill)
        icon_w = 0
        if is_task:
            ix, iy = round(x) + pad * 2, round(y + offset) - small + pad * 2
            p.icon("check", ix + small // 2, iy + small // 2, small, ink)
            icon_w = small + pad
        room = right - left - pad - icon_w - pad
        shown = title[: p.fitted_length(title, small, room)]
        p.text_at(round(x + icon_w + pad * 2), round(y + offset), shown, small, ink, "start")
        for i in range(span):
            offsets[start + i] = offset + small + pad * 2

    for event in events:
        chip(*event)
