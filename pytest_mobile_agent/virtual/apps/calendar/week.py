"""Simple Calendar's weekly view: the hours, the day columns and the event blocks.

Learned from Simple-Calendar's fragment_week_holder.xml, fragment_week.xml, week_event_marker.xml,
week_all_day_event_marker.xml, week_grid_item.xml, week_now_marker.xml, weekly_view_*.xml,
fragments/WeekFragmentsHolder.kt, fragments/WeekFragment.kt and views/WeeklyViewGrid.kt:
- WeekFragmentsHolder: the month ("May") and week number ("wk. 20") over the hour labels
  ("01:00 AM" ... "11:00 PM", one per 60 dp row), the pager of weeks (a page is
  `weekly_view_days` days, 1 to 14, paged by that many days from the week's first day), and the
  day-count seekbar ("7 days") when "Allow customizing day count" is on.
- WeekFragment: the day labels ("W\\n15", or "Wed\\n15" where a day is wider than 60 dp; today's
  in the primary colour), the all-day lines (all-day events and, by default, events spanning
  midnight), then 24 rows scrolled to "Start day at" (7 AM) with the grid lines drawn on a canvas,
  each event as a block of its colour at its start and length, side by side where they overlap,
  and the now marker across today's column. A tap on an empty spot shows a "+" over that hour;
  a tap on the "+" asks Event or Task (when tasks are allowed) and opens the editor starting then.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from functools import partial
from typing import Any, Protocol

from pytest_mobile_agent.virtual.apps.calendar.editors import EventActivity, TaskActivity
from pytest_mobile_agent.virtual.apps.calendar.formatting import month_name, time_text, weekday_letter
from pytest_mobile_agent.virtual.apps.calendar.settings import weekends_color
from pytest_mobile_agent.virtual.apps.calendar.store import FLAG_ALL_DAY, TYPE_TASK, CalendarStore, seconds, utc
from pytest_mobile_agent.virtual.apps.commons.dates import java_date
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, Navigator, Overlay
from pytest_mobile_agent.virtual.ui.layout import CHAR_WIDTH
from pytest_mobile_agent.virtual.ui.render.colors import ink_on, mix, parse_color
from pytest_mobile_agent.virtual.ui.view import IMAGE, LINEAR, RELATIVE, VIEW, View


class MainActivity(Protocol):
    """What the weekly view needs of the main screen (main.MainActivity, which imports it)."""

    app: CalendarStore
    today: date
    scroll: dict[str, int]
    week_slot: tuple[date, int] | None

    @property
    def wm(self) -> Navigator: ...
    def period_start(self) -> date: ...
    def week_offset(self, d: date) -> int: ...
    def move(self, step: int) -> None: ...
    def tap_event(self, e: dict[str, Any]) -> None: ...
    def start(self, cls: type[Activity], **extras: str) -> None: ...
    def show(self, overlay: Overlay) -> None: ...


ROW_DP = 60  # weekly_view_row_height (x weeklyViewItemHeightMultiplier, 1 until pinched)
MIN_EVENT_DP = 10  # weekly_view_minimal_event_height
NOW_DP = 10  # weekly_view_now_height
MIN_DAY_LABEL_DP = 60  # weekly_view_min_day_label: wider days get "Wed", narrower "W"
MAX_DAYS = 14  # WeekFragmentsHolder.MAX_SEEKBAR_VALUE
LETTERS_DP = 44  # two 14sp lines and small_margin under them
ALL_DAY_LINE_DP = 18  # a 10sp label and the 1 px margin under it
HOURS_PAD_DP = 6  # smaller_margin on each side of an hour label
SCROLL_TOP_DP = 8  # the hours' scrollview's medium_margin paddingTop
MEDIUM_ALPHA, HIGHER_ALPHA = 0.5, 0.75
SCROLL_KEY = "week_events_scrollview"


@dataclass
class Block:
    """EventWeeklyView: an event's minutes on one day and its place among the events it meets."""

    lower: int
    upper: int
    slot: int = 0
    slot_max: int = 0
    collisions: set[int] = field(default_factory=set)


def first_day_of_week(activity: MainActivity, day: date) -> date:
    """getFirstDayOfWeekDt: the week's first day, or the day itself with "Start week with the
    current day" on."""
    if activity.app.pref("start_week_with_current_day", False):
        return day
    return day - timedelta(days=activity.week_offset(day))


def days_count(activity: MainActivity) -> int:
    return int(activity.app.pref("weekly_view_days", 7))


def on_top_bar(activity: MainActivity, e: dict[str, Any]) -> bool:
    """shouldAddEventOnTopBar: one-day all-day events, and events spanning midnight by default."""
    spans = utc(e["start_ts"]).date() != utc(e["end_ts"]).date()
    all_day = bool(e["flags"] & FLAG_ALL_DAY)
    return (all_day and not spans) or (spans and bool(activity.app.pref("show_midnight_spanning_events_at_top", True)))


def day_blocks(events: list[dict[str, Any]], days: list[date]) -> dict[date, dict[int, Block]]:
    """addEvents' first two passes: each event's minutes per day (at least the minimal height),
    then the slots of the events that share minutes, in the events' order."""
    out: dict[date, dict[int, Block]] = {}
    for e in events:
        start, end = utc(e["start_ts"]), utc(e["end_ts"])
        all_day = bool(e["flags"] & FLAG_ALL_DAY)
        day = start.date()
        while day <= end.date():
            lower = start.hour * 60 + start.minute if day == start.date() and not all_day else 0
            duration = (end.hour * 60 + end.minute - lower) if day == end.date() and not all_day else 1440
            upper = lower + max(duration, MIN_EVENT_DP)  # one minute is one dp
            if day in days:
                out.setdefault(day, {})[e["id"]] = Block(lower, upper)
            day += timedelta(days=1)
    for blocks in out.values():
        checked: set[int] = set()
        for event_id, a in blocks.items():
            if a.slot == 0:
                a.slot, a.slot_max = 1, 1
            checked.add(event_id)
            for other_id, b in blocks.items():
                if other_id in checked or not _touch(a, b):
                    continue
                if b.slot == 0:
                    taken = set_slot(blocks, a, b)
                    b.slot = taken
                    if taken == a.slot_max + 1:
                        for c in (blocks[i] for i in a.collisions):
                            c.slot_max += 1
                        a.slot_max = b.slot_max = taken
                    else:
                        b.slot_max = a.slot_max
                a.collisions.add(other_id)
                b.collisions.add(event_id)
    return out


def _touch(a: Block, b: Block) -> bool:
    """Range.intersects and "do have common minutes" (a zero-length event touching b's start counts)."""
    if not (a.lower <= b.upper and b.lower <= a.upper):
        return False
    return a.upper > b.lower or a.lower == a.upper == b.lower


def set_slot(blocks: dict[int, Block], a: Block, b: Block) -> int:
    """The lowest slot among a's that neither a nor its colliders overlapping b hold, else a new one."""
    new = a.slot_max + 1
    slots = list(range(1, a.slot_max + 1))
    for c in (blocks[i] for i in a.collisions):
        if c.lower <= b.upper and b.lower <= c.upper:
            slots[c.slot - 1] = new
    slots[a.slot - 1] = new
    return min(slots)


def all_day_rows(events: list[dict[str, Any]], days: list[date]) -> list[list[tuple]]:
    """addAllDayEvent: each top-bar event on the first line where its days are free, as
    (event, first column, columns)."""
    rows: list[list[tuple]] = [[]]
    used: list[set[date]] = [set()]
    for e in events:
        start, end = utc(e["start_ts"]).date(), utc(e["end_ts"]).date()
        if end == start + timedelta(days=1) and utc(e["end_ts"]).time() == datetime.min.time():
            end = start
        first, last = max(start, days[0]), min(end, days[-1])
        if last < first:
            continue
        span = {first + timedelta(days=i) for i in range((last - first).days + 1)}
        line = next((i for i, u in enumerate(used) if not u & span), None)
        if line is None:
            rows.append([])
            used.append(set())
            line = len(rows) - 1
        used[line] |= span
        rows[line].append((e, days.index(first), (last - first).days + 1))
    return rows


def _colors(activity: MainActivity, e: dict[str, Any]) -> tuple[str, str, float]:
    """The block's background, its text's colour (getContrastColor) and the text's opacity:
    past events dimmed (dimPastEvents: the background at half, the text at 3/4 alpha)."""
    color = activity.app.event_color(e)
    rgb = parse_color(color) or (0, 0, 0)
    ink = _hex(ink_on(rgb))
    now = activity.app.device.clock.now().timestamp()
    if e["type"] != TYPE_TASK and activity.app.pref("dim_past_events", True) and e["end_ts"] < now:
        return _hex(mix(rgb, (255, 255, 255), MEDIUM_ALPHA)), ink, HIGHER_ALPHA
    return color, ink, 1.0


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def event_marker(activity: MainActivity, e: dict[str, Any], lines: int, **place: Any) -> View:
    """week_event_marker.xml / week_all_day_event_marker.xml: the label (its title, also its
    content-desc) at the top of the event's colour, a task's icon before it (a task's label and
    a zero-length event's keep to one line). A tap opens the editor."""
    a = activity.app
    color, ink, alpha = _colors(activity, e)
    task = e["type"] == TYPE_TASK
    label = w.text(
        a.rid("week_event_label"),
        e["title"],
        size=10,
        desc=e["title"],
        weight=1 if task else 0,
        padding=1,
        max_lines=1 if task or e["start_ts"] == e["end_ts"] else lines,
        alpha=alpha,
        tint=ink,
    )
    top = label
    if task:
        icon = w.image(a.rid("week_event_task_image"), "Task", "check", width=12, height=12, alpha=alpha, tint=ink)
        top = w.row([icon, label], height=14)
    return View(
        "androidx.constraintlayout.widget.ConstraintLayout",
        id=a.rid("week_event_holder"),
        key=f"week_event_{e['id']}",
        clickable=True,
        focusable=True,
        long_clickable=True,
        on_click=partial(activity.tap_event, e),
        color=color,
        children=[top],
        **place,
    )


def day_label(activity: MainActivity, day: date) -> View:
    """weekly_view_day_letter.xml: "W\\n15" ("Wed\\n15" where the screen's width shared by the days
    is over 60 dp: setupDayLabels' useLongerDayLabels); today's in the primary colour."""
    wide = activity.wm.width / activity.wm.scale / days_count(activity) > MIN_DAY_LABEL_DP
    name = java_date("EEE", day) if wide else weekday_letter(day.weekday())
    return w.text(
        activity.app.rid("week_day_label"),
        f"{name}\n{day.day}",
        size=14,
        weight=1,
        gravity="center",
        height=LETTERS_DP - 4,
        tint=label_color(activity, day),  # the text's colour
    )


def label_color(activity: MainActivity, day: date) -> str:
    """Today's in the primary colour, else weekends' in highlightWeekendsColor where highlighted."""
    if day == activity.today:
        return "primary"
    if activity.app.pref("highlight_weekends", False) and day.weekday() >= 5:
        return weekends_color(activity.app)
    return ""


def hours_width(activity: MainActivity) -> float:
    """The hour labels' column: wrap_content of its widest label."""
    widest = max(len(time_text(activity.app, datetime(2000, 1, 1, h))) for h in range(1, 24))
    return widest * 14 * CHAR_WIDTH + 2 * HOURS_PAD_DP


def page_events(activity: MainActivity, days: list[date]) -> list[dict[str, Any]]:
    """The events a page shows, in updateWeeklyCalendar's order."""
    since = datetime.combine(days[0], datetime.min.time())
    until = since + timedelta(days=len(days))
    return sorted(
        (
            e
            for e in activity.app.displayed(activity.app.events.all())
            if utc(e["start_ts"]) < until and utc(e["end_ts"]) >= since
        ),
        key=lambda e: (e["start_ts"], e["end_ts"], e["title"], e["description"]),
    )


def week_page(activity: MainActivity, days: list[date], events: list[dict[str, Any]], rows: list[list[tuple]]) -> View:
    """WeekFragment (fragment_week.xml): one page of days."""
    a, scale = activity.app, activity.wm.scale
    day_dp = (activity.wm.width / scale - hours_width(activity)) / len(days)
    lines = []
    for row in rows:
        markers = [
            event_marker(activity, e, 2, x=col * day_dp, y=0, width=day_dp * cols, height=ALL_DAY_LINE_DP - 1)
            for e, col, cols in row
        ]
        lines.append(View(RELATIVE, orientation="stack", height=ALL_DAY_LINE_DP if markers else 0, children=markers))
    letters = w.row([day_label(activity, d) for d in days], id=a.rid("week_letters_holder"), height=LETTERS_DP)
    top_holder = View(
        RELATIVE,
        id=a.rid("week_top_holder"),
        children=[letters, View(LINEAR, id=a.rid("week_all_day_holder"), children=lines)],
    )
    timed = [e for e in events if not on_top_bar(activity, e)]
    blocks = day_blocks(timed, days)
    columns = []
    for i, d in enumerate(days):
        markers = []
        for e in timed:
            b = blocks.get(d, {}).get(e["id"])
            if b is None:
                continue
            width = (day_dp - 1 / scale) / b.slot_max
            x = width * (b.slot - 1)
            if b.slot > 1:  # side-by-side blocks keep a gap of `density` px (rounded), 1 dp
                x, width = x + 1, width - 1
            y = b.lower - (b.lower // 60 // 2) / scale  # the grid lines' own drift, half a px an hour
            height = b.upper - b.lower - 1 / scale
            markers.append(event_marker(activity, e, 3, x=x, y=y, width=width, height=height))
        if activity.week_slot is not None and activity.week_slot[0] == d:
            markers.append(plus_marker(activity, d, activity.week_slot[1]))
        columns.append(
            View(
                RELATIVE,
                id=a.rid("week_column"),
                key=f"week_column_{i}",
                orientation="stack",
                weight=1,
                on_touch=partial(_slot_tapped, activity, d),
                children=markers,
            )
        )
    holder_children = []
    if activity.today in days:  # added at index 0: under the grid and the blocks
        holder_children.append(now_marker(activity, days.index(activity.today), day_dp))
    holder_children += [
        View(VIEW, id=a.rid("week_horizontal_grid_holder"), kind="week_grid", canvas=(24, len(days), ROW_DP)),
        w.row(columns, id=a.rid("week_events_columns_holder"), height=24 * ROW_DP),
    ]
    events_holder = View(
        RELATIVE, id=a.rid("week_events_holder"), orientation="stack", height=24 * ROW_DP, children=holder_children
    )
    scroll = w.scroll(a.rid(SCROLL_KEY), [events_holder], key=SCROLL_KEY)
    return View(RELATIVE, id=a.rid("week_holder"), weight=1, children=[top_holder, scroll])


def now_marker(activity: MainActivity, column: int, day_dp: float) -> View:
    """week_now_marker.xml: weekly_now.9.png tinted primary, one column (plus activity_margin)
    wide, centred on the current minute."""
    now = activity.app.device.clock.now()
    minutes = now.hour * 60 + now.minute
    count = days_count(activity)
    x = 0.0 if count == 1 else day_dp * column - 8
    return View(IMAGE, x=x, y=minutes - NOW_DP / 2, width=day_dp + 16, height=NOW_DP, kind="week_now", tint="primary")


def plus_marker(activity: MainActivity, day: date, hour: int) -> View:
    """week_grid_item.xml: the tapped hour filled with the primary colour, a "+" on it."""
    return View(
        IMAGE,
        id=activity.app.rid("week_holder"),
        key="week_plus",
        x=0,
        y=hour * ROW_DP - (hour // 2) / activity.wm.scale,
        height=ROW_DP,
        clickable=True,
        focusable=True,
        icon="add",
        kind="week_plus",
        on_click=partial(new_at, activity, day, hour),
    )


def _slot_tapped(activity: MainActivity, day: date, fx: float, fy: float) -> None:
    activity.week_slot = (day, min(23, int(fy * 24)))


def new_at(activity: MainActivity, day: date, hour: int) -> None:
    """The "+": Event or Task (RadioGroupDialog) when tasks are allowed, then the editor with
    NEW_EVENT_START_TS at that hour and NEW_EVENT_SET_HOUR_DURATION."""
    start = datetime.combine(day, datetime.min.time()) + timedelta(hours=hour)

    def launch(task: bool) -> None:
        activity.week_slot = None
        activity.start(
            TaskActivity if task else EventActivity,
            start_ts=str(seconds(start)),
            hour_duration="1",
        )
        activity.wm.ime_shown = True

    if activity.app.pref("allow_creating_tasks", True):
        assert isinstance(activity, Activity)
        activity.show(w.radio_dialog(activity, ("Event", "Task"), -1, lambda i: launch(i == 1)))
    else:
        launch(False)


def week_fragment(activity: MainActivity) -> View:
    """WeekFragmentsHolder (fragment_week_holder.xml)."""
    a, start = activity.app, activity.period_start()
    count = days_count(activity)
    days = [start + timedelta(days=i) for i in range(count)]
    events = page_events(activity, days)
    rows = all_day_rows([e for e in events if on_top_bar(activity, e)], days)
    if SCROLL_KEY not in activity.scroll:  # first shown scrolled to "Start day at" (startWeeklyAt)
        activity.scroll[SCROLL_KEY] = round(ROW_DP * int(a.pref("start_weekly_at", 7)) * activity.wm.scale)
    top_dp = LETTERS_DP + ALL_DAY_LINE_DP * sum(1 for row in rows if row)  # updateHoursTopMargin
    # Each hour's label is a row tall with its text at the bottom, under the scrollview's 8 dp
    # padding, so that its text sits across the hour's line: here a row-tall label centred there.
    labels = [
        w.text(
            a.rid("weekly_view_hour_textview"),
            time_text(a, datetime(2000, 1, 1, h)),
            size=14,
            gravity="center",
            x=0,
            y=h * ROW_DP - ROW_DP / 2,
            height=ROW_DP,
        )
        for h in range(1, 24)
    ]
    hours_holder = View(
        LINEAR,
        id=a.rid("week_view_hours_holder"),
        orientation="stack",
        height=SCROLL_TOP_DP + 24 * ROW_DP,
        children=labels,
    )
    # It follows the events' scroll (WeekFragmentListener.scrollTo): one offset for both.
    hours = w.scroll(a.rid("week_view_hours_scrollview"), [hours_holder], key=SCROLL_KEY)
    number = (start + timedelta(days=3)).isocalendar()[1]
    corner = [
        w.text(a.rid("week_view_month_label"), month_name(start.month)[:3], size=14, gravity="center", height=20),
        w.text(a.rid("week_view_week_number"), f"wk. {number}", size=12, gravity="center", height=20),
        View(IMAGE, id=a.rid("week_view_hours_divider"), height=top_dp - 40),
    ]
    left = w.column([*corner, hours], width=hours_width(activity))
    pager = View(
        "androidx.viewpager.widget.ViewPager",
        id=a.rid("week_view_view_pager"),
        on_page=activity.move,
        weight=1,
        children=[week_page(activity, days, events, rows)],
    )
    children = [w.row([left, pager], weight=1)]
    if a.pref("allow_customize_day_count", True):
        seekbar = View(
            "android.widget.SeekBar",
            id=a.rid("week_view_seekbar"),
            weight=1,
            focusable=True,
            kind="week_seekbar",
            canvas=(count, MAX_DAYS),
            on_touch=partial(_seek, activity),
        )
        label = f"{count} day{'' if count == 1 else 's'}"
        children += [
            View(VIEW, id=a.rid("week_view_days_count_divider"), height=1, kind="divider"),
            w.row([seekbar, w.text(a.rid("week_view_days_count"), label, size=14, padding=16)], height=48),
        ]
    return View(RELATIVE, id=a.rid("week_view_holder"), weight=1, children=children)


def _seek(activity: MainActivity, fx: float, fy: float) -> None:
    """MySeekBar: a tap moves the thumb there (0 counts as 1); updateWeeklyViewDays keeps the
    page's first day."""
    activity.app.set_pref("weekly_view_days", max(1, round(fx * MAX_DAYS)))
