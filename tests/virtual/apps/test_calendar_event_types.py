"""Simple Calendar's event types in-process: Manage event types (add, edit, delete with their
dialogs) and the editors' type and colour pickers."""

from __future__ import annotations

from datetime import datetime

import pytest

from pytest_mobile_agent.virtual.apps.calendar.settings import SettingsActivity
from pytest_mobile_agent.virtual.apps.calendar.store import argb_hex, hex_argb, seconds
from pytest_mobile_agent.virtual.boot import boot
from pytest_mobile_agent.virtual.core.config import DeviceConfig

PKG = "com.simplemobiletools.calendar.pro"


def rid(name: str) -> str:
    return f"{PKG}:id/{name}"


@pytest.fixture
def device(tmp_path):
    dev = boot(tmp_path, DeviceConfig(serial="types"))
    dev.wm.start_activity(dev.packages.app(PKG), SettingsActivity)
    yield dev
    dev.shutdown()


def app(dev):
    return dev.packages.app(PKG)


def all_views(dev, name: str, text: str | None = None) -> list:
    return [
        v
        for w in reversed(dev.wm.frame().windows)
        for v in w.root.walk()
        if v.shown and (v.id in (rid(name), name) or (not name and v.text == text)) and (text is None or v.text == text)
    ]


def tap(dev, name: str = "", text: str | None = None, *, long: bool = False) -> None:
    l, t, r, b = all_views(dev, name, text)[0].visible_bounds
    dev.wm.tap((l + r) // 2, (t + b) // 2, long=long)


def type_in(dev, name: str, text: str) -> None:
    all_views(dev, name)[0].on_text(text)
    dev.wm.changed()


def types(dev) -> list[tuple[str, str]]:
    return [(t["title"], argb_hex(t["color"]).upper()) for t in app(dev).event_types.all()]


def test_add_edit_and_delete_event_types(device):
    d = device
    tap(d, "settings_manage_event_types_holder")
    assert [v.text for v in all_views(d, "event_type_title")] == ["Regular event"]
    assert all_views(d, "event_type_color")[0].color == "#f57c00"
    tap(d, "add_event_type")
    assert all_views(d, "alertTitle")[0].text == "Add a new type"
    assert d.wm.ime_shown and all_views(d, "type_title")[0].focused
    tap(d, "android:id/button1")  # OK with no title
    assert d.wm.last_toast == "Title cannot be empty" and all_views(d, "type_title")
    type_in(d, "type_title", "Work")
    tap(d, "type_color")  # Simple-Commons' colour picker over the dialog
    green = all_views(d, "recent_colors")[0].children[2]
    l, t, r, b = green.visible_bounds
    d.wm.tap((l + r) // 2, (t + b) // 2)
    tap(d, "android:id/button1")  # the picker's OK
    assert all_views(d, "type_color")[0].color == "#388E3C"
    tap(d, "android:id/button1")  # the dialog's OK
    assert types(d) == [("Regular event", "#F57C00"), ("Work", "#388E3C")]
    assert [v.text for v in all_views(d, "event_type_title")] == ["Regular event", "Work"]
    # Edit: a tap on the row; another type's title is refused.
    tap(d, "event_type_title", "Work")
    assert all_views(d, "alertTitle")[0].text == "Edit type" and all_views(d, "type_title")[0].text == "Work"
    type_in(d, "type_title", "regular EVENT")
    tap(d, "android:id/button1")
    assert d.wm.last_toast == "Type with this title already exists"
    type_in(d, "type_title", "Office")
    tap(d, "android:id/button1")
    assert types(d) == [("Office", "#388E3C"), ("Regular event", "#F57C00")]
    # Delete a type with events: move them to the regular type.
    office = app(d).event_types.with_title("Office")["id"]
    at = seconds(datetime(2024, 5, 15, 10))
    app(d).events.save({"title": "Standup", "start_ts": at, "end_ts": at, "event_type": office})
    tap(d, "event_type_title", "Office", long=True)
    assert all_views(d, "actionbar_title")[0].text == "1 / 2" and all_views(d, "cab_edit")
    tap(d, "cab_delete")
    tap(d, "", "Move affected events into the default event type")
    assert types(d) == [("Regular event", "#F57C00")]
    assert app(d).events.all()[0]["event_type"] == 1
    # The regular type cannot go: its row's overflow menu, Delete, remove its events: refused.
    tap(d, "overflow_menu_icon")
    tap(d, "android:id/title", "Delete")
    tap(d, "", "Permanently remove affected events")
    assert d.wm.last_toast == "Default event type cannot be deleted"
    assert types(d) == [("Regular event", "#F57C00")] and len(app(d).events.all()) == 1


def test_the_editor_picks_a_type_and_a_colour(device):
    d = device
    work = app(d).event_types.save("Work", hex_argb("#1976D2"))
    d.wm.start_activity(app(d), app(d).activity_class("EventActivity"))
    assert all_views(d, "event_type")[0].text == "Regular event"
    tap(d, "event_type_holder")
    rows = [v.text for v in all_views(d, "dialog_radio_button")]
    assert rows == ["Regular event", "Work", "Add a new type"]
    assert all_views(d, "dialog_manage_event_types")[0].text == "Manage event types"
    tap(d, "dialog_radio_button", "Work")
    assert all_views(d, "event_type")[0].text == "Work"
    assert all_views(d, "event_color")[0].color == "#1976d2"  # the type's colour
    tap(d, "event_color_holder")
    buttons = [v.text for w in d.wm.frame().windows for v in w.root.walk() if v.id.startswith("android:id/button")]
    assert sorted(buttons) == ["Cancel", "Default color", "OK"]
    type_in(d, "color_picker_new_hex", "d32f2f")
    tap(d, "android:id/button1")
    assert all_views(d, "event_color")[0].color == "#D32F2F"
    type_in(d, "event_title", "Review")
    tap(d, "save")
    if all_views(d, "alertTitle"):  # the first reminder's Disclaimer
        tap(d, "android:id/button1")
    saved = app(d).events.all()[0]
    assert saved["title"] == "Review" and saved["event_type"] == work
    assert argb_hex(saved["color"]) == "#d32f2f"
    assert app(d).pref("last_used_local_event_type_id") == work


def test_a_second_type_brings_the_filter_and_the_quick_filter(device):
    d = device
    a = app(d)
    work = a.event_types.save("Work", hex_argb("#1976D2"))
    at = seconds(datetime(2024, 5, 15, 10))
    a.events.save({"title": "Standup", "start_ts": at, "end_ts": at, "event_type": work})
    a.set_pref("view", 5)  # Simple event list
    d.wm.start_activity(a, a.main_activity)
    assert all_views(d, "filter")[0].desc == "Filter events by type"
    assert [v.text for v in all_views(d, "quick_filter_event_type")] == ["Regular event", "Work"]
    assert [v.text for v in all_views(d, "event_item_title")] == ["Standup"]
    tap(d, "quick_filter_event_type", "Work")  # hides Work's events; its line goes thin
    assert not all_views(d, "event_item_title")
    assert [v.alpha for v in all_views(d, "quick_filter_event_type")] == [1.0, 0.5]
    tap(d, "filter")
    rows = [(v.text, v.checked) for v in all_views(d, "filter_event_type_checkbox")]
    assert rows == [("Regular event", True), ("Work", False)]
    tap(d, "filter_event_type_holder")  # Regular event off
    tap(d, "android:id/button2")  # Cancel: nothing changes
    assert a.pref("display_event_types") == [1]
    tap(d, "filter")
    tap(d, "filter_event_type_checkbox", "Work")
    tap(d, "android:id/button1")
    assert a.pref("display_event_types") == [1, work]
    assert [v.text for v in all_views(d, "event_item_title")] == ["Standup"]
