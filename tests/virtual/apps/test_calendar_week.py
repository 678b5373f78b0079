"""Simple Calendar's weekly view in-process: the hour grid, event blocks in their type's colour at
their time, side by side where they overlap, a tapped slot's "+" opening the editor at that hour,
paging by the day count, and the day-count seekbar."""

from __future__ import annotations

from datetime import datetime

import pytest

from pytest_mobile_agent.virtual.apps.calendar.store import hex_argb, seconds
from pytest_mobile_agent.virtual.boot import boot
from pytest_mobile_agent.virtual.core.config import DeviceConfig
from pytest_mobile_agent.virtual.ui.render.renderer import ScreenRenderer

PKG = "com.simplemobiletools.calendar.pro"


def rid(name: str) -> str:
    return f"{PKG}:id/{name}"


@pytest.fixture
def week(tmp_path):
    """A fresh device in the weekly view (the clock: Wed 2024-05-15 09:00) with three events."""
    device = boot(tmp_path, DeviceConfig(serial="week"))
    app = device.packages.app(PKG)
    app.set_pref("view", 1)
    green = app.event_types.save("Work", hex_argb("#388e3c"))
    at = lambda h, m=0: seconds(datetime(2024, 5, 15, h, m))  # noqa: E731
    app.events.save({"title": "Laundry", "start_ts": at(10), "end_ts": at(11, 30)})
    app.events.save({"title": "Cooking", "start_ts": at(11), "end_ts": at(12), "event_type": green})
    app.events.save({"title": "Trip", "start_ts": at(0), "end_ts": at(0), "flags": 1})
    device.wm.start_activity(app, app.main_activity, launcher=True)
    yield device
    device.shutdown()


def views(device, name: str, text: str | None = None) -> list:
    return [
        v
        for w in device.wm.frame().windows
        for v in w.root.walk()
        if v.shown and v.id == rid(name) and (text is None or v.text == text)
    ]


def block(device, title: str):
    return next(v for v in views(device, "week_event_holder") if any(c.text == title for c in v.walk()))


def center(v) -> tuple[int, int]:
    l, t, r, b = v.visible_bounds
    return (l + r) // 2, (t + b) // 2


def test_event_blocks_are_drawn_in_their_type_colour_at_their_time(week):
    frame = week.wm.frame()
    img = ScreenRenderer(1080, 2340, week.wm.scale).image(frame, "9:00").convert("RGB")
    laundry, cooking = block(week, "Laundry"), block(week, "Cooking")
    grid = views(week, "week_horizontal_grid_holder")[0]
    px = lambda dp: round(dp * week.wm.scale)  # noqa: E731
    # Scrolled to "Start day at" 7 AM: 10:00 is 3 rows (180 dp) below the grid's visible top, less
    # the half px an hour the grid's lines drift up (WeekFragment's "compensate grid offset").
    assert abs(laundry.bounds[1] - (grid.visible_bounds[1] + px(180) - 10 // 2)) <= 1
    assert abs((laundry.bounds[3] - laundry.bounds[1]) - px(90)) <= 3  # 90 minutes, a dp each
    # Overlapping from 11:00: two slots of Wednesday's column, side by side.
    wednesday = views(week, "week_column")[3]
    assert laundry.bounds[0] == wednesday.bounds[0] and laundry.bounds[2] <= cooking.bounds[0]
    assert cooking.bounds[2] <= wednesday.bounds[2]
    x, y = laundry.bounds[0] + 3, laundry.bounds[3] - 5  # clear of the label
    assert img.getpixel((x, y)) == (0xF5, 0x7C, 0x00)  # "Regular event": the primary colour
    assert img.getpixel((cooking.bounds[2] - 3, cooking.bounds[3] - 5)) == (0x38, 0x8E, 0x3C)
    assert img.getpixel((wednesday.bounds[2] + 20, y)) == (255, 255, 255)  # Thursday is empty then
    # The all-day event sits on the top bar over its day, not in the grid.
    trip = block(week, "Trip")
    assert trip.bounds[3] <= grid.visible_bounds[1] and trip.bounds[0] == wednesday.bounds[0]


def test_labels_hours_and_the_day_count(week):
    labels = [v.text for v in views(week, "week_day_label")]
    assert labels == ["S\n12", "M\n13", "T\n14", "W\n15", "T\n16", "F\n17", "S\n18"]
    hours = [v.text for v in views(week, "weekly_view_hour_textview")]
    assert hours[0] == "07:00 AM" and "11:00 AM" in hours
    assert views(week, "week_view_days_count")[0].text == "7 days"
    bar = views(week, "week_view_seekbar")[0]
    l, t, r, b = bar.bounds
    week.wm.tap(l + (r - l) * 3 // 14, (t + b) // 2)  # the thumb to 3 of 14
    assert views(week, "week_view_days_count")[0].text == "3 days"
    # Three days are wide enough for the short day names.
    assert [v.text for v in views(week, "week_day_label")] == ["Sun\n12", "Mon\n13", "Tue\n14"]


def test_a_tapped_slot_shows_a_plus_that_opens_the_editor_at_that_hour(week):
    friday = views(week, "week_column")[5]
    grid_top = views(week, "week_horizontal_grid_holder")[0].bounds[1]  # 00:00, scrolled above
    week.wm.tap(center(friday)[0], grid_top + round((14 * 60 + 20) * week.wm.scale))  # 14:20
    plus = [v for v in views(week, "week_holder") if v.clickable]
    assert len(plus) == 1 and plus[0].icon == "add"
    img = ScreenRenderer(1080, 2340, week.wm.scale).image(week.wm.frame(), "9:00").convert("RGB")
    l, t, r, b = plus[0].visible_bounds  # the hour filled with the primary colour, "+" in its middle
    assert l == friday.bounds[0] and abs((b - t) - round(60 * week.wm.scale)) <= 1
    assert img.getpixel((l + 4, t + 4)) == (0xF5, 0x7C, 0x00) and img.getpixel(center(plus[0])) != (0xF5, 0x7C, 0x00)
    week.wm.tap(*center(plus[0]))
    assert [v.text for v in week.wm.frame().windows[-1].root.walk() if v.text] == ["Event", "Task"]
    week.wm.tap(*center(next(v for v in week.wm.frame().windows[-1].root.walk() if v.text == "Event")))
    assert type(week.wm.top()).__name__ == "EventActivity"
    assert views(week, "event_start_date")[0].text == "May 17"
    assert views(week, "event_start_time")[0].text == "02:00 PM"
    assert views(week, "event_end_time")[0].text == "03:00 PM"  # NEW_EVENT_SET_HOUR_DURATION


def test_a_block_opens_its_event_and_swipes_page_weeks(week):
    week.wm.tap(*center(block(week, "Laundry")))
    assert type(week.wm.top()).__name__ == "EventActivity"
    assert views(week, "event_title")[0].text == "Laundry"
    week.wm.key(4)  # BACK
    pager = views(week, "week_view_view_pager")[0]
    l, t, r, b = pager.bounds
    week.wm.swipe(r - 40, (t + b) // 2, l + 40, (t + b) // 2, 200)
    assert views(week, "week_day_label")[0].text == "S\n19"
    assert views(week, "week_view_week_number")[0].text == "wk. 21"
    assert not views(week, "week_event_holder")
    assert views(week, "go_to_today")
    week.wm.swipe(l + 40, (t + b) // 2, r - 40, (t + b) // 2, 200)
    assert views(week, "week_day_label")[0].text == "S\n12"


def test_highlighted_weekends_take_the_colour_picked_in_settings(week):
    app = week.packages.app(PKG)
    app.set_pref("highlight_weekends", True)
    assert [v.tint for v in views(week, "week_day_label")] == ["#EC2E2A", "", "", "primary", "", "", "#EC2E2A"]
    week.wm.start_activity(app, app.activity_class("SettingsActivity"))
    assert views(week, "settings_highlight_weekends_color")[0].color == "#EC2E2A"
    week.wm.tap(*center(views(week, "settings_highlight_weekends_color_holder")[0]))
    views(week, "color_picker_new_hex")[0].on_text("1976D2")
    ok = next(v for w in week.wm.frame().windows for v in w.root.walk() if v.id == "android:id/button1")
    week.wm.tap(*center(ok))
    assert views(week, "settings_highlight_weekends_color")[0].color == "#1976D2"
    week.wm.key(4)  # BACK to the weekly view
    assert views(week, "week_day_label")[0].tint == "#1976D2"


def test_the_hours_scroll_with_the_grid(week):
    grid = views(week, "week_events_scrollview")[0]
    l, t, r, b = grid.visible_bounds
    first = lambda: views(week, "weekly_view_hour_textview")[0]  # noqa: E731
    assert first().text == "07:00 AM"
    # A drag that stops before it lifts: the grid moves by the path past the touch slop, no fling.
    x, y, rows = (l + r) // 2, b - 100, round((5 * 60 + 8) * week.wm.scale)
    for action, to in (("DOWN", y), ("MOVE", y - rows), ("UP", y - rows)):
        week.wm.motion(action, x, to, spacing_ms=50)
    assert first().text == "12:00 PM"  # five rows further, the labels with them
    # Its label still centred on the noon line of the grid: half a row above it, half below.
    noon = views(week, "week_horizontal_grid_holder")[0].bounds[1] + round(12 * 60 * week.wm.scale)
    assert abs(noon - (first().bounds[1] + first().bounds[3]) // 2) <= 1
