"""Simple Calendar Pro on the virtual device, driven through uiautomator2 like the benchmark."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from drags import drag

PKG = "com.simplemobiletools.calendar.pro"


def rid(name: str) -> str:
    return f"{PKG}:id/{name}"


@pytest.fixture
def cal(u2d, adbd):
    adbd.shell(f"pm clear {PKG}")
    u2d.app_start(PKG)
    return u2d


def nodes(d) -> list[ET.Element]:
    """One dump instead of a round trip per view."""
    return list(ET.fromstring(d.dump_hierarchy()).iter("node"))


def texts(d, name: str) -> list[str]:
    return [n.get("text", "") for n in nodes(d) if n.get("resource-id") == rid(name)]


def create(d, adbd, title: str, *, task: bool = False, first: bool = False) -> None:
    """The benchmark's setup: FAB, "Event" (or "Task"), a title, Save (and OK on the Disclaimer)."""
    d(resourceId=rid("calendar_fab")).click()
    d(text="Task" if task else "Event").click()
    adbd.shell(["input", "text", title])  # the title field has the focus and the keyboard
    d(description="Save").click()
    if first:
        assert d(resourceId=rid("alertTitle")).get_text() == "Disclaimer"
        d(text="OK").click()


def radios(d) -> list[str]:
    return [n.get("text", "") for n in nodes(d) if n.get("class") == "android.widget.RadioButton"]


def change_view(d, label: str) -> None:
    d(description="Change view").click()
    d(text=label).click()


def restart(d, adbd) -> None:
    adbd.shell(f"am force-stop {PKG}")
    d.app_start(PKG)


def scroll_to(d, **selector) -> None:
    for _ in range(12):
        if d(**selector).exists:
            return
        drag(d, 540, 1900, 540, 900)
    raise AssertionError(f"not found: {selector}")


def test_fresh_month_view_menu_and_navigation(cal):
    d = cal
    assert d(resourceId=rid("main_coordinator")).exists
    assert d(resourceId=rid("top_value")).get_text() == "May"  # the device clock: 2024-05-15
    assert d(resourceId=rid("top_value")).info["contentDescription"] == "May"
    assert d(resourceId=rid("month_view")).exists and not d(resourceId=rid("day_events")).exists
    assert [n.get("content-desc") for n in nodes(d) if n.get("class") == "android.widget.Button"] == [
        "Change view",
        "Settings",
    ]
    assert d(description="New Event").info["resourceName"] == rid("calendar_fab")
    d(description="More options").click()
    assert texts(d, "title") == [
        "Go to date", "Print", "Add holidays", "Add contact birthdays", "Add contact anniversaries", "About",
    ]  # fmt: skip
    d.press("back")
    d(resourceId=rid("top_right_arrow")).click()  # calendar_next_month
    assert d(resourceId=rid("top_value")).get_text() == "June"
    assert d(description="Go to today").info["resourceName"] == rid("go_to_today")
    d(description="Go to today").click()
    assert d(resourceId=rid("top_value")).get_text() == "May"
    d(resourceId=rid("top_left_arrow")).click()
    d(resourceId=rid("top_left_arrow")).click()
    d(resourceId=rid("top_left_arrow")).click()
    d(resourceId=rid("top_left_arrow")).click()
    d(resourceId=rid("top_left_arrow")).click()
    assert d(resourceId=rid("top_value")).get_text() == "December 2023"


def test_views_and_their_persistence(cal, adbd):
    d = cal
    d(description="Change view").click()
    assert radios(d) == [
        "Daily view", "Weekly view", "Monthly view", "Monthly and daily view", "Yearly view", "Simple event list",
    ]  # fmt: skip
    assert d(text="Monthly view").info["checked"]
    d(text="Daily view").click()  # calendar_daily_view
    assert d(resourceId=rid("day_events")).exists
    assert d(resourceId=rid("top_value")).get_text() == "May 15 (Wed)"
    d(resourceId=rid("top_right_arrow")).click()
    assert d(resourceId=rid("top_value")).get_text() == "May 16 (Thu)"
    change_view(d, "Weekly view")
    assert d(resourceId=rid("week_view_month_label")).get_text() == "May"
    assert d(resourceId=rid("week_view_week_number")).get_text() == "wk. 20"
    assert texts(d, "week_letters_holder") == [""]
    assert not d(resourceId=rid("calendar_fab")).exists
    change_view(d, "Yearly view")
    assert d(resourceId=rid("top_value")).get_text() == "2024"
    assert len(texts(d, "month_label")) == 12
    change_view(d, "Monthly and daily view")
    assert d(resourceId=rid("month_day_selected_day_label")).get_text() == "May 15 (Wed)"
    change_view(d, "Simple event list")
    assert d(resourceId=rid("calendar_empty_list_placeholder")).get_text() == "No upcoming events."
    assert d(resourceId=rid("calendar_empty_list_placeholder_2")).get_text() == "Create a new event"
    assert not d(description="More options").exists or "Go to date" not in texts(d, "title")
    restart(d, adbd)
    assert d(resourceId=rid("calendar_events_list_holder")).exists
    adbd.shell(f"pm clear {PKG}")
    d.app_start(PKG)
    assert d(resourceId=rid("month_view")).exists


def test_month_day_opens_the_day_above_the_month(cal):
    d = cal
    d(resourceId=rid("month_view_background"), instance=10).click()
    assert d(resourceId=rid("day_events")).exists
    assert d(resourceId=rid("top_toolbar_search_icon")).info["contentDescription"] == "Back"
    d.press("back")
    assert d(resourceId=rid("month_view")).exists


def test_create_event_laundry_persists_in_the_events_db(cal, adbd):
    d = cal
    d(resourceId=rid("calendar_fab")).click()
    assert d(resourceId=rid("fab_event_label")).get_text() == "Event"
    assert d(resourceId=rid("fab_task_label")).get_text() == "Task"
    d(resourceId=rid("fab_event_label")).click()
    assert d(resourceId=rid("event_toolbar")).child(text="New Event").exists
    assert d(resourceId=rid("event_title")).info["focused"]
    assert d(resourceId=rid("event_reminder_1")).get_text() == "10 minutes before"
    assert d(resourceId=rid("event_start_time")).get_text() == "10:00 AM"
    assert d(resourceId=rid("event_start_date")).get_text() == "May 15"
    d(description="Save").click()  # an empty title
    d(text="OK").click()
    assert d.toast.get_message(0, default="") == "Title cannot be empty"
    adbd.shell(["input", "text", "laundry"])
    assert d(resourceId=rid("event_title")).get_text() == "laundry"
    d(description="Save").click()  # the Disclaimer showed already
    assert d(resourceId=rid("main_coordinator")).exists
    assert "databases/events.db" in adbd.shell(f"ls /data/data/{PKG}/databases/events.db")
    change_view(d, "Simple event list")
    assert texts(d, "event_item_title") == ["laundry"]
    assert texts(d, "event_section_title") == ["May", "15 Wednesday"]
    assert texts(d, "event_item_time") == ["10:00 AM"]
    restart(d, adbd)
    assert texts(d, "event_item_title") == ["laundry"]
    # Editing: tap the row, the editor says "Edit Event" and saves in place.
    d(text="laundry").click()
    assert d(resourceId=rid("event_toolbar")).child(text="Edit Event").exists
    assert d(description="Duplicate event").exists
    d(resourceId=rid("event_description")).click()
    adbd.shell(["input", "text", "towels"])
    d(description="Save").click()
    assert texts(d, "event_item_description") == ["towels"]
    adbd.shell(f"pm clear {PKG}")
    d.app_start(PKG)
    change_view(d, "Simple event list")
    assert texts(d, "event_item_title") == []


def test_create_and_search(cal, adbd):
    d = cal
    create(d, adbd, "laundry", first=True)
    create(d, adbd, "cooking")
    d(resourceId=rid("top_toolbar_search")).click()  # calendar_search
    assert d(resourceId=rid("top_toolbar_search_icon")).info["contentDescription"] == "Back"
    adbd.shell(["input", "text", "l"])
    assert d(resourceId=rid("search_placeholder_2")).exists
    adbd.shell(["input", "text", "aundry"])
    assert d(resourceId=rid("top_toolbar_search")).get_text() == "laundry"
    assert texts(d, "event_item_title") == ["laundry"]
    d(resourceId=rid("top_toolbar_search")).set_text("zzz")
    assert d(resourceId=rid("search_placeholder")).get_text() == "No items found."
    d.press("back")  # hides the keyboard
    d.press("back")  # closes the search
    assert d(resourceId=rid("top_toolbar_search")).get_text() == ""
    assert d(resourceId=rid("month_view")).exists


def test_new_task_all_day_with_description(cal, adbd):
    d = cal
    d(resourceId=rid("calendar_fab")).click()
    d(resourceId=rid("fab_task_label")).click()
    assert d(resourceId=rid("task_toolbar")).child(text="New Task").exists
    adbd.shell(["input", "text", "laundry"])
    d(resourceId=rid("task_description")).click()
    adbd.shell(["input", "text", "wash all my clothes"])
    d(resourceId=rid("task_all_day_holder")).click()
    assert d(resourceId=rid("task_all_day")).info["checked"]
    assert not d(resourceId=rid("task_time")).exists
    assert d(resourceId=rid("task_title")).get_text() == "laundry"
    assert d(resourceId=rid("task_description")).get_text() == "wash all my clothes"
    d(description="Save").click()
    d(text="OK").click()  # Disclaimer
    change_view(d, "Simple event list")
    assert texts(d, "event_item_title") == ["laundry"]
    assert texts(d, "event_item_time") == ["All-day"]
    assert texts(d, "event_item_description") == ["wash all my clothes"]
    assert d(resourceId=rid("event_item_task_image")).info["contentDescription"] == "Task"


def test_delete_laundry_and_meeting_from_the_list(cal, adbd):
    d = cal
    create(d, adbd, "Laundry", first=True)
    create(d, adbd, "Cooking")
    create(d, adbd, "Meeting")
    change_view(d, "Simple event list")
    assert texts(d, "event_item_title") == ["Cooking", "Laundry", "Meeting"]
    d(text="Laundry").long_click()
    assert d(resourceId=rid("actionbar_title")).get_text() == "1 / 3"
    assert d(description="Done").info["resourceName"] == rid("action_mode_close_button")
    d(text="Meeting").click()
    assert d(resourceId=rid("actionbar_title")).get_text() == "2 / 3"
    assert d(description="Share").info["resourceName"] == rid("cab_share")
    d(resourceId=rid("cab_delete")).click()
    assert d(resourceId=rid("delete_event_description")).get_text() == (
        "Are you sure you want to proceed with the deletion?"
    )
    d(text="Yes").click()
    assert texts(d, "event_item_title") == ["Cooking"]
    assert not d(text="Laundry").exists and not d(text="Meeting").exists
    assert not d(resourceId=rid("action_mode_bar")).exists
    # One more through the editor's Delete.
    d(text="Cooking").click()
    d(description="Delete").click()
    d(text="Yes").click()
    assert d(resourceId=rid("calendar_empty_list_placeholder")).exists


def test_unsaved_editor_asks_before_leaving(cal, adbd):
    d = cal
    create(d, adbd, "draft", first=True)
    d(resourceId=rid("calendar_fab")).click()
    d(text="Event").click()
    adbd.shell(["input", "text", "half"])
    d.press("back")  # keyboard
    d.press("back")
    assert d(resourceId=rid("message")).get_text() == "You have unsaved changes. Save before exit?"
    d(text="Discard").click()
    change_view(d, "Simple event list")
    assert texts(d, "event_item_title") == ["draft"]


def test_settings_start_week_and_snooze_time(cal, adbd):
    d = cal
    d(description="Settings").click()
    assert d(resourceId=rid("settings_start_week_on")).get_text() == "Sunday"
    d(resourceId=rid("settings_start_week_on_holder")).click()  # calendar_start_week
    assert radios(d)[:2] == ["Sunday", "Monday"]
    d(text="Monday").click()
    assert d(resourceId=rid("settings_start_week_on")).get_text() == "Monday"
    scroll_to(d, resourceId=rid("settings_snooze_time_holder"))  # calendar_snooze_time
    assert d(resourceId=rid("settings_snooze_time")).get_text() == "10 minutes"
    assert d(resourceId=rid("settings_use_same_snooze")).info["checked"]
    d(resourceId=rid("settings_snooze_time_holder")).click()
    assert radios(d) == ["1 minute", "5 minutes", "10 minutes", "30 minutes", "1 hour", "Custom"]
    d(text="1 minute").click()
    assert d(resourceId=rid("settings_snooze_time")).get_text() == "1 minute"
    d(resourceId=rid("settings_use_same_snooze_holder")).click()
    assert not d(resourceId=rid("settings_snooze_time_holder")).exists
    d(resourceId=rid("settings_use_same_snooze_holder")).click()
    restart(d, adbd)
    d(description="Settings").click()
    assert d(resourceId=rid("settings_start_week_on")).get_text() == "Monday"
    scroll_to(d, resourceId=rid("settings_snooze_time"))
    assert d(resourceId=rid("settings_snooze_time")).get_text() == "1 minute"
    adbd.shell(f"pm clear {PKG}")
    d.app_start(PKG)
    d(description="Settings").click()
    assert d(resourceId=rid("settings_start_week_on")).get_text() == "Sunday"


def test_about_page(cal, adbd):
    d = cal
    d(description="More options").click()
    d(text="About").click()  # calendar_open_about
    assert "AboutActivity" in d.app_current()["activity"]
    assert d(text="Version 6.23.1 Pro").exists
    d(text="Frequently asked questions").click()
    assert d(text="Does the app support time zones?").exists


def test_the_month_view_draws_event_titles_on_its_canvas_only(cal, adbd):
    """MonthView.onDraw paints each event as a chip under its day; the titles are not views."""
    d = cal
    month = d(resourceId=rid("month_view")).info["bounds"]
    screen_h = d.window_size()[1]
    assert month["bottom"] > screen_h * 0.8  # the month fills the screen below its navigation
    cell = d(resourceId=rid("month_view_background"), instance=17).info["bounds"]  # May 15, today

    def chip_pixels() -> int:
        """Orange pixels (the screenshot is a JPEG) in today's cell below the day number's circle."""
        img = d.screenshot().convert("RGB")
        top = cell["top"] + round(0.25 * (cell["bottom"] - cell["top"]))
        return sum(
            1
            for y in range(top, cell["bottom"])
            for x in range(cell["left"], cell["right"])
            if (lambda r, g, b: r > 215 and 95 < g < 155 and b < 60)(*img.getpixel((x, y)))
        )

    assert chip_pixels() == 0
    create(d, adbd, "laundry", first=True)
    assert d(resourceId=rid("month_view")).exists
    assert chip_pixels() > 500
    assert not d(text="laundry").exists  # drawn, not in the hierarchy (as on a phone)


def test_back_over_a_dialog_above_the_focused_title_closes_the_dialog(cal):
    """New event (the title focused, the keyboard up), Repeat: the dialog has the window focus
    and no keyboard; the first BACK closes it, as on Android, and the editor keeps its title."""
    d = cal
    d(resourceId=rid("calendar_fab")).click()
    d(resourceId=rid("fab_event_label")).click()
    d.shell(["input", "text", "Gym"])
    assert d(resourceId=rid("event_title")).info["focused"]
    assert "mInputShown=true" in d.shell("dumpsys input_method").output
    scroll_to(d, resourceId=rid("event_repetition"))
    d(resourceId=rid("event_repetition")).click()
    assert radios(d)[:2] == ["No repetition", "Daily"]
    assert "mInputShown=false" in d.shell("dumpsys input_method").output  # hidden for the dialog
    d.press("back")
    assert radios(d) == [], "the first BACK left the Repeat dialog open"
    assert d(resourceId=rid("event_toolbar")).child(text="New Event").exists
    assert d(resourceId=rid("event_title")).get_text() == "Gym"


def _swipe(adbd, bounds: dict, dx_fraction: float, duration_ms: int) -> None:
    """`input swipe` across the middle of a view, `dx_fraction` of its width (negative: leftwards)."""
    y = (bounds["top"] + bounds["bottom"]) // 2
    mid = (bounds["left"] + bounds["right"]) // 2
    half = int((bounds["right"] - bounds["left"]) * dx_fraction / 2)
    adbd.shell(f"input swipe {mid - half} {y} {mid + half} {y} {duration_ms}")


def test_horizontal_swipes_page_the_month_as_a_view_pager_does(cal, adbd):
    d = cal
    pager = d(resourceId=rid("fragment_months_viewpager"))
    assert pager.info["scrollable"]  # what a hierarchy reader is told: it pages sideways
    bounds = pager.info["bounds"]
    _swipe(adbd, bounds, -0.6, 300)  # a fling to the left: the next month
    assert d(resourceId=rid("top_value")).get_text() == "June"
    _swipe(adbd, bounds, 0.6, 300)
    assert d(resourceId=rid("top_value")).get_text() == "May"
    _swipe(adbd, bounds, -0.3, 3000)  # slow and short of 60% of the page: it springs back
    assert d(resourceId=rid("top_value")).get_text() == "May"
    _swipe(adbd, bounds, -0.7, 3000)  # slow but past 60% of the page: it turns
    assert d(resourceId=rid("top_value")).get_text() == "June"
    _swipe(adbd, bounds, 0.02, 50)  # under the touch slop: a tap on the day there, no page turned
    assert d(resourceId=rid("top_value")).get_text() == "June 12 (Wed)"
