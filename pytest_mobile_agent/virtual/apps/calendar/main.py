"""Simple Calendar Pro's main screen: the six views, search, the FAB and the selection.

Ids, texts and flows follow docs/fidelity/calendar.md, learned from Simple-Calendar's
activity_main.xml, menu_main.xml, fragment_*.xml, event_list_item.xml, MainActivity.kt,
EventListAdapter.kt and helpers/Formatter.kt, and Simple-Commons' MySearchMenu and adapters.
Dates come from the device clock (UTC); the locale is en-US (12-hour times, weeks start on Sunday).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from functools import partial
from typing import Any

from pytest_mobile_agent.virtual.apps.calendar.dialogs import date_picker_dialog, delete_events_dialog
from pytest_mobile_agent.virtual.apps.calendar.editors import EventActivity, TaskActivity
from pytest_mobile_agent.virtual.apps.calendar.event_types import QUICK_FILTER_DP, filter_types_dialog, quick_filter
from pytest_mobile_agent.virtual.apps.calendar.formatting import (
    day_title,
    month_name,
    month_title,
    time_text,
    weekday_letter,
    weekday_name,
)
from pytest_mobile_agent.virtual.apps.calendar.settings import SettingsActivity
from pytest_mobile_agent.virtual.apps.calendar.store import (
    FLAG_ALL_DAY,
    TYPE_TASK,
    CalendarStore,
    displayed_types,
    seconds,
    utc,
)
from pytest_mobile_agent.virtual.apps.calendar.week import days_count, first_day_of_week, week_fragment
from pytest_mobile_agent.virtual.apps.commons.about import ProAboutActivity
from pytest_mobile_agent.virtual.apps.commons.action_mode import action_mode_bar
from pytest_mobile_agent.virtual.apps.commons.menus import close_search, search_is_open, search_menu, split_menu
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, App
from pytest_mobile_agent.virtual.ui.view import FRAME, IMAGE, LINEAR, RELATIVE, VIEW, VIEW_GROUP, View

VIEWS = ("Daily view", "Weekly view", "Monthly view", "Monthly and daily view", "Yearly view", "Simple event list")
DAILY, WEEKLY, MONTHLY, MONTHLY_DAILY, YEARLY, LIST = range(6)
VIEW_PAGER = "androidx.viewpager.widget.ViewPager"
RECYCLER = "androidx.recyclerview.widget.RecyclerView"


def add_months(day: date, n: int) -> date:
    m = day.month - 1 + n
    return date(day.year + m // 12, m % 12 + 1, 1)


def event_day(e: dict[str, Any]) -> date:
    return utc(e["start_ts"]).date()


def event_row(activity: MainActivity, e: dict[str, Any], selected: set[int]) -> View:
    """event_list_item.xml; a tap opens the editor (or toggles it while selecting)."""
    a = activity.app
    all_day = bool(e["flags"] & FLAG_ALL_DAY)
    start, end = utc(e["start_ts"]), utc(e["end_ts"])
    when = "All-day" if all_day else time_text(a, start)
    if e["start_ts"] != e["end_ts"]:
        if not all_day:
            when += f" - {time_text(a, end)}"
        if start.date() != end.date():
            when += f" ({end.day} {weekday_name(end.weekday())})"
    # event_item_color_bar: a bar of the event's colour (its own, else its type's)
    children = [w.image(a.rid("event_item_color_bar"), width=8, height=40, color=a.event_color(e), kind="")]
    if e["type"] == TYPE_TASK:
        children.append(w.image(a.rid("event_item_task_image"), "Task", "check", width=24, height=24))
    texts = [w.text(a.rid("event_item_title"), e["title"], size=16, bold=True), w.text(a.rid("event_item_time"), when)]
    if e["description"] and a.pref("display_description", True):
        texts.append(w.text(a.rid("event_item_description"), e["description"].replace("\n", " "), size=14))
    children.append(w.column(texts, weight=1, padding=4))
    return View(
        VIEW_GROUP,
        id=a.rid("event_item_holder"),
        clickable=True,
        long_clickable=True,
        focusable=True,
        selected=e["id"] in selected,
        orientation="h",
        padding=6,
        kind="row",
        on_click=lambda: activity.tap_event(e),
        on_long_click=lambda: activity.select_event(e),
        children=children,
    )


def event_list_items(activity: MainActivity, events: list[dict[str, Any]], selected: set[int]) -> list[View]:
    """Context.getEventListItems: month headers, day headers ("15 Wednesday"), event rows."""
    a, today = activity.app, activity.today
    out: list[View] = []
    prev_month = prev_day = None
    for e in sorted(events, key=lambda e: (e["start_ts"] - (1 if e["flags"] & FLAG_ALL_DAY else 0), e["title"])):
        day = event_day(e)
        month = month_title(day, today)
        if month != prev_month:
            out.append(w.text(a.rid("event_section_title"), month, size=20, bold=True, padding=8))
            prev_month = month
        if day != prev_day:
            out.append(w.text(a.rid("event_section_title"), f"{day.day} {weekday_name(day.weekday())}", padding=8))
            prev_day = day
        out.append(event_row(activity, e, selected))
    return out


class MainActivity(Activity):
    name = ".activities.MainActivity"
    app: CalendarStore

    def __init__(self, app: App, extras: dict[str, str] | None = None) -> None:
        super().__init__(app, extras)
        self.app.events.all()  # EventsDatabase is made (with its default event type) in onCreate
        self.today = app.device.clock.now().date()
        self.shown = self.today  # the day whose period (day, week, month, year) is shown
        self.day_on_top: date | None = None  # a day opened from the month view, above it
        self.fab_open = False
        self.selected: set[int] = set()
        self.week_start: date | None = None  # the weekly page's first day, once paged
        self.week_slot: tuple[date, int] | None = None  # the weekly view's tapped hour (its "+")

    @property
    def view(self) -> int:
        return DAILY if self.day_on_top else int(self.app.pref("view", MONTHLY))

    def on_resume(self) -> None:
        self.today = self.app.device.clock.now().date()

    def back(self) -> None:
        """The stacked day view's back arrow: what BACK does."""
        self.on_back()

    def on_back(self) -> bool:
        if search_is_open(self):
            close_search(self)
        elif self.selected:
            self.selected.clear()
        elif self.fab_open:
            self.fab_open = False
        elif self.day_on_top:
            self.day_on_top = None
        else:
            return False
        return True

    # -- behaviour ------------------------------------------------------------------------
    def period_start(self) -> date:
        d, view = self.day_on_top or self.shown, self.view
        if view in (MONTHLY, MONTHLY_DAILY):
            return d.replace(day=1)
        if view == WEEKLY:
            return self.week_start or first_day_of_week(self, d)
        if view == YEARLY:
            return d.replace(month=1, day=1)
        return d

    def week_offset(self, d: date) -> int:
        first = int(self.app.pref("first_day_of_week", 6))  # index into WEEKDAYS; Sunday in en-US
        return (d.weekday() - first) % 7

    def shows_today(self) -> bool:
        view, start = self.view, self.period_start()
        if view == LIST:
            return True
        if view == DAILY:
            return start == self.today
        if view == WEEKLY:  # shouldGoToTodayBeVisible: the page is not this week's
            return start == first_day_of_week(self, self.today)
        if view == YEARLY:
            return start.year == self.today.year
        return (start.year, start.month) == (self.today.year, self.today.month)

    def move(self, step: int) -> None:
        view = self.view
        if self.day_on_top:
            self.day_on_top += timedelta(days=step)
        elif view in (MONTHLY, MONTHLY_DAILY):
            self.shown = add_months(self.shown.replace(day=1), step)
            if (self.shown.year, self.shown.month) == (self.today.year, self.today.month):
                self.shown = self.today
        elif view == YEARLY:
            self.shown = date(self.shown.year + step, 1, 1)
        elif view == WEEKLY:  # the pager's pages are `weekly_view_days` apart
            self.week_start = self.period_start() + timedelta(days=step * days_count(self))
            self.week_slot = None
        else:
            self.shown += timedelta(days=step)

    def go_to_today(self) -> None:
        self.shown, self.day_on_top, self.week_start = self.today, None, None

    def new_item_day(self) -> date:
        return self.today if self.shows_today() else self.period_start()

    def open_new(self, task: bool) -> None:
        self.fab_open = False
        close_search(self)
        self.start(TaskActivity if task else EventActivity, day=self.new_item_day().isoformat())
        self.wm.ime_shown = True  # a new item's title has the focus and the keyboard

    def fab_tap(self) -> None:
        if self.app.pref("allow_creating_tasks", True) and not self.fab_open:
            self.fab_open = True
        else:
            self.open_new(task=False)

    def tap_event(self, e: dict[str, Any]) -> None:
        if self.selected:
            self.selected ^= {e["id"]}
            return
        self.start(TaskActivity if e["type"] == TYPE_TASK else EventActivity, event_id=str(e["id"]))

    def select_event(self, e: dict[str, Any]) -> None:
        self.selected ^= {e["id"]}

    def shown_events(self) -> list[dict[str, Any]]:
        events = self.app.displayed(self.app.events.all())
        view = self.view
        if view == LIST:
            # "Display events from the past": one day back by default.
            since = datetime.combine(self.today, datetime.min.time()) - timedelta(
                minutes=int(self.app.pref("display_past_events", 1440))
            )
            return [e for e in events if e["end_ts"] >= seconds(since)]
        day = self.day_on_top or self.shown
        return [e for e in events if event_day(e) == day]

    def delete_selected(self) -> None:
        ids = sorted(self.selected)

        def yes() -> None:
            self.app.events.delete(ids)
            self.selected.clear()

        self.show(delete_events_dialog(self, yes))

    def change_view(self) -> None:
        def pick(i: int) -> None:
            close_search(self)
            self.app.set_pref("view", i)
            self.day_on_top, self.shown, self.selected = None, self.today, set()
            self.week_start = self.week_slot = None

        self.show(w.radio_dialog(self, VIEWS, int(self.app.pref("view", MONTHLY)), pick))

    def go_to_date(self) -> None:
        def chosen(d: date) -> None:
            self.shown, self.day_on_top, self.week_start = d, None, None

        self.show(date_picker_dialog(self, self.day_on_top or self.shown, chosen))

    def filter_shown(self) -> bool:
        """mShouldFilterBeVisible: more than one event type, or none displayed."""
        return len(self.app.event_types.all()) > 1 or not displayed_types(self.app)

    def filter_types(self) -> None:
        self.show(filter_types_dialog(self))

    def add_holidays(self) -> None:
        countries = (
            "Australia",
            "Austria",
            "Belgium",
            "Brazil",
            "Canada",
            "Czechia",
            "Denmark",
            "France",
            "Germany",
            "India",
            "Italy",
            "Netherlands",
            "Slovakia",
            "Spain",
            "United Kingdom",
            "USA",
        )
        self.show(w.radio_dialog(self, countries, -1, lambda i: self.toast("Importing…")))

    # -- the screen -------------------------------------------------------------------------
    def menu(self) -> tuple[list, list]:
        view = self.view
        items = [
            ("go_to_today", "Go to today", "calendar", self.go_to_today, "always", not self.shows_today()),
            ("change_view", "Change view", "calendar", self.change_view, "always", True),
            ("filter", "Filter events by type", "filter_list", self.filter_types, "ifRoom", self.filter_shown()),
            ("go_to_date", "Go to date", "", self.go_to_date, "never", view != LIST),
            ("print", "Print", "", lambda: None, "never", view != MONTHLY_DAILY),
            ("add_holidays", "Add holidays", "", self.add_holidays, "never", True),
            (
                "add_birthdays",
                "Add contact birthdays",
                "",
                lambda: self.toast("No birthdays have been found"),
                "never",
                True,
            ),
            (
                "add_anniversaries",
                "Add contact anniversaries",
                "",
                lambda: self.toast("No anniversaries have been found"),
                "never",
                True,
            ),
            ("settings", "Settings", "settings", lambda: self.start(SettingsActivity), "ifRoom", True),
            ("about", "About", "info", lambda: self.start(ProAboutActivity), "ifRoom", True),
        ]
        if search_is_open(self):
            items[0] = (*items[0][:5], False)
        return split_menu([i[:5] for i in items if i[5]])

    def content(self) -> View:
        a = self.app
        actions, overflow = self.menu()
        top = search_menu(self, actions=actions, overflow=overflow)
        if self.day_on_top and not search_is_open(self):
            icon = top.find(id=a.rid("top_toolbar_search_icon"))
            if icon is not None:  # the stacked day view turns the search icon into a back arrow
                icon.desc, icon.icon, icon.on_click = "Back", "back", self.back
        if self.selected:
            total = len(self.shown_events())
            bar = action_mode_bar(
                self,
                len(self.selected),
                total,
                actions=(
                    ("cab_share", "Share", "share", lambda: self.toast("No app found")),
                    ("cab_delete", "Delete", "delete", self.delete_selected),
                ),
                on_close=self.selected.clear,
                on_select_all=lambda: self.selected.update(e["id"] for e in self.shown_events()),
            )
            top = View(VIEW_GROUP, orientation="stack", children=[top, bar], height=64)
        query = self.texts.get("top_toolbar_search", "")
        body = self.search_holder(query) if query else self.main_holder()
        coordinator = View(VIEW_GROUP, id=a.rid("calendar_coordinator"), weight=1, orientation="stack", children=[body])
        return w.screen(top, [coordinator], id=a.rid("main_coordinator"))

    def main_holder(self) -> View:
        a = self.app
        fragment = {
            DAILY: self.day_fragment,
            WEEKLY: self.week_fragment,
            MONTHLY: self.month_fragment,
            MONTHLY_DAILY: self.month_day_fragment,
            YEARLY: self.year_fragment,
            LIST: self.list_fragment,
        }[self.view]()
        holder = View(FRAME, id=a.rid("fragments_holder"), children=[fragment], weight=1)  # match_parent
        children = [View(VIEW_GROUP, id=a.rid("swipe_refresh_layout"), children=[holder])]
        quick = quick_filter(self)
        if quick is not None:  # the fragments end above the quick filter
            children[0].weight = 1
            children = [w.column([children[0], quick])]
        if self.fab_open:
            children.append(
                View(
                    RELATIVE, id=a.rid("fab_extended_overlay"), clickable=True, on_click=self._close_fab, color="white"
                )
            )
            label: dict[str, Any] = {"size": 16, "clickable": True, "padding": 8, "gravity": "end"}
            task_row = w.row(
                [
                    w.text(a.rid("fab_task_label"), "Task", on_click=lambda: self.open_new(True), **label),
                    w.icon_button(a.rid("fab_task_icon"), "", "check", lambda: self.open_new(True), cls=IMAGE),
                ],
                height=56,
                gravity="end",
            )
            event_row_ = w.row(
                [
                    w.text(a.rid("fab_event_label"), "Event", on_click=lambda: self.open_new(False), **label),
                    View(width=72),
                ],
                height=72,
            )
            children.append(w.column([task_row, event_row_], width=220, height=144, gravity="end", vgravity="end"))
        if self.view not in (WEEKLY, YEARLY) or self.day_on_top:
            fab = w.fab(a.rid("calendar_fab"), "New Event", "calendar" if self.fab_open else "add", self.fab_tap)
            if quick is not None:  # constrained above the quick filter
                fab = w.column([View(orientation="stack", weight=1, children=[fab]), View(height=QUICK_FILTER_DP)])
            children.append(fab)
        return View(VIEW_GROUP, id=a.rid("main_holder"), orientation="stack", children=children)

    def _close_fab(self) -> None:
        self.fab_open = False

    def top_navigation(self, value: str) -> View:
        a = self.app
        return w.row(
            [
                w.icon_button(a.rid("top_left_arrow"), "", "back", lambda: self.move(-1), cls=IMAGE),
                w.text(
                    a.rid("top_value"),
                    value,
                    size=20,
                    desc=value,
                    clickable=True,
                    on_click=self.go_to_date,
                    weight=1,
                    gravity="center",
                    padding=12,
                ),
                w.icon_button(a.rid("top_right_arrow"), "", "arrow_forward", lambda: self.move(1), cls=IMAGE),
            ],
            height=56,
        )

    def month_grid(self, wrapper_id: str, first: date) -> View:
        """MonthViewWrapper: a canvas-drawn month (no text nodes) and a clickable cell per day."""
        a = self.app
        start = first - timedelta(days=self.week_offset(first))
        cells = [
            View(
                VIEW,
                id=a.rid("month_view_background"),
                clickable=True,
                focusable=True,
                weight=1,
                on_click=partial(self.open_day, start + timedelta(days=i)),
            )
            for i in range(42)
        ]
        rows = [w.row(cells[i : i + 7], weight=1) for i in range(0, 42, 7)]
        data = self.month_canvas_data(first, start, dots=wrapper_id == "month_day_view_wrapper")
        canvas = View(VIEW, id=a.rid("month_view"), kind="month", canvas=data)
        letters = View(height=28)  # MonthViewWrapper lays the day cells out below the letters (2 x 14sp)
        grid = w.column([letters, *rows])
        return View(FRAME, id=a.rid(wrapper_id), orientation="stack", weight=1, children=[canvas, grid])

    def month_canvas_data(self, first: date, start: date, *, dots: bool = False) -> tuple:
        """What MonthView.onDraw paints (ui/render/month_canvas.py): letters, days, event chips (in the
        "Monthly and daily view", a dot under each day with events instead)."""
        days = [start + timedelta(days=i) for i in range(42)]
        lead = int(self.app.pref("first_day_of_week", 6))
        today_col = days.index(self.today) % 7 if self.today.month == first.month and self.today in days else -1
        now = self.app.device.clock.now().timestamp()
        dim_past = self.app.pref("dim_past_events", True)
        chips = []
        for e in self.app.displayed(self.app.events.all()):
            begin, end = utc(e["start_ts"]).date(), utc(e["end_ts"]).date()
            if end < days[0] or begin > days[-1]:
                continue
            index = max((begin - days[0]).days, 0)
            span = (end - max(begin, days[0])).days  # getEventLastingDaysCount
            count = (0 if span == 1 and utc(e["end_ts"]).time() == datetime.min.time() else span) + 1
            elsewhere = begin.month != first.month and end.month != first.month  # only other months' days
            dim = elsewhere or (dim_past and e["end_ts"] < now) if e["type"] != TYPE_TASK else False
            chips.append(
                (
                    (-count, not e["flags"] & FLAG_ALL_DAY, e["start_ts"], e["end_ts"], index, e["title"]),
                    (index, count, e["title"], self.app.event_color(e), e["type"] == TYPE_TASK, bool(dim)),
                )
            )
        return (
            tuple(weekday_letter((lead + i) % 7) for i in range(7)),
            today_col,
            tuple((d.day, d == self.today, d.month == first.month) for d in days),
            tuple(chip for _, chip in sorted(chips)),
            dots,
        )

    def open_day(self, d: date) -> None:
        if self.view == MONTHLY_DAILY:
            self.shown = d
        else:
            self.day_on_top = d

    def month_fragment(self) -> View:
        a, first = self.app, self.period_start()
        holder = View(
            RELATIVE,
            id=a.rid("month_calendar_holder"),
            weight=1,
            children=[
                self.top_navigation(month_title(first, self.today)),
                self.month_grid("month_view_wrapper", first),
            ],
        )
        return View(VIEW_PAGER, on_page=self.move, id=a.rid("fragment_months_viewpager"), children=[holder], weight=1)

    def day_fragment(self) -> View:
        a, day = self.app, self.day_on_top or self.shown
        rows = [event_row(self, e, self.selected) for e in self.shown_events()]
        holder = View(
            RELATIVE,
            id=a.rid("day_holder"),
            children=[
                self.top_navigation(day_title(day, self.today)),
                w.scroll(a.rid("day_events"), rows, cls=RECYCLER),
            ],
        )
        return View(VIEW_PAGER, on_page=self.move, id=a.rid("fragment_days_viewpager"), children=[holder])

    def week_fragment(self) -> View:
        return week_fragment(self)

    def year_fragment(self) -> View:
        a, year = self.app, self.period_start().year
        months = [
            View(
                LINEAR,
                id=a.rid(f"month_{i + 1}_holder"),
                clickable=True,
                weight=1,
                children=[w.text(a.rid("month_label"), name, size=14, gravity="center")],
                on_click=partial(self._open_month, date(year, i + 1, 1)),
            )
            for i, name in enumerate(month_name(m) for m in range(1, 13))
        ]
        grid = View(
            "android.widget.GridLayout",
            id=a.rid("calendar_wrapper"),
            weight=1,
            children=[w.row(months[i : i + 3], weight=1) for i in range(0, 12, 3)],
        )
        holder = View(RELATIVE, id=a.rid("calendar_holder"), children=[self.top_navigation(str(year)), grid])
        return View(VIEW_PAGER, on_page=self.move, id=a.rid("fragment_years_viewpager"), children=[holder])

    def _open_month(self, d: date) -> None:
        self.app.set_pref("view", MONTHLY)
        self.shown = d

    def month_day_fragment(self) -> View:
        a = self.app
        events = [event_row(self, e, self.selected) for e in self.shown_events()]
        listing: list[View] = [
            w.text(a.rid("month_day_selected_day_label"), day_title(self.shown, self.today), padding=8)
        ]
        if events:
            listing.append(w.scroll(a.rid("month_day_events_list"), events, cls=RECYCLER))
        else:
            listing.append(w.text(a.rid("month_day_no_events_placeholder"), "No items found.", padding=12))
        month = self.month_grid("month_day_view_wrapper", self.period_start())
        month.weight = 3  # fragment_month_day.xml: the month 30% of the height, the day's list 70%
        return View(
            VIEW_GROUP,
            id=a.rid("month_day_calendar_holder"),
            weight=1,
            children=[month, View(RELATIVE, id=a.rid("month_day_list_holder"), weight=7, children=listing)],
        )

    def list_fragment(self) -> View:
        a = self.app
        items = event_list_items(self, self.shown_events(), self.selected)
        if items:
            children = [w.scroll(a.rid("calendar_events_list"), items, cls=RECYCLER)]
        else:
            children = [
                w.text(a.rid("calendar_empty_list_placeholder"), "No upcoming events.", gravity="center", padding=16),
                w.text(
                    a.rid("calendar_empty_list_placeholder_2"),
                    "Create a new event",
                    gravity="center",
                    clickable=True,
                    on_click=lambda: self.open_new(False),
                    padding=8,
                ),
            ]
        return View(RELATIVE, id=a.rid("calendar_events_list_holder"), children=children)

    def search_holder(self, query: str) -> View:
        a = self.app
        children: list[View] = []
        found: list[dict[str, Any]] = []
        if len(query) >= 2:
            q = query.lower()
            found = [
                e
                for e in self.app.events.all()
                if q in e["title"].lower() or q in e["location"].lower() or q in e["description"].lower()
            ]
        if found:
            children.append(w.scroll(a.rid("search_results_list"), event_list_items(self, found, set()), cls=RECYCLER))
        else:
            children.append(w.text(a.rid("search_placeholder"), "No items found.", gravity="center", padding=16))
            if len(query) == 1:
                children.append(
                    w.text(
                        a.rid("search_placeholder_2"),
                        "Type in at least 2 characters to start the search.",
                        gravity="center",
                    )
                )
        return View(RELATIVE, id=a.rid("search_holder"), children=children)
