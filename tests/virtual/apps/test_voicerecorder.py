"""Simple Voice Recorder on the virtual device, driven through uiautomator2 like the benchmark.

Recordings are made through the UI as the benchmark's setups do (tap the record button twice)
and land in /sdcard/Music/Recordings; deleting goes through the media provider's "Allow" prompt
(docs/fidelity/voicerecorder.md §2.7, §4).
"""

from __future__ import annotations

import json
import re
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from drags import drag
from fidelity_docs import fidelity_doc, literal_ids, package_source, screen_ids

PKG = "com.simplemobiletools.voicerecorder"
FOLDER = "/sdcard/Music/Recordings"
MEDIA_PROVIDER = "com.google.android.providers.media.module"
START = "date @1715763600"  # 2024-05-15 09:00 UTC: recordings advance the device clock


def rid(name: str) -> str:
    return f"{PKG}:id/{name}"


@pytest.fixture
def recorder(u2d, adbd):
    adbd.shell(f"pm clear {PKG}")
    adbd.shell(f"rm -rf {FOLDER} && mkdir -p {FOLDER} && {START}")  # the benchmark's teardown
    u2d.app_start(PKG)
    yield u2d
    adbd.shell(f"rm -rf {FOLDER} && mkdir -p {FOLDER} && {START}")


def files(adbd) -> list[str]:
    return sorted(f for f in adbd.shell(f"ls -a {FOLDER}").split() if f not in (".", ".."))


def texts(d, name: str) -> list[str]:
    return [n.get("text") for n in ET.fromstring(d.dump_hierarchy()).iter("node") if n.get("resource-id") == rid(name)]


def record(d, times: int = 1) -> None:
    for _ in range(times):
        d(resourceId=rid("toggle_recording_button")).click()
        assert d(resourceId=rid("toggle_pause_button")).exists
        d(resourceId=rid("toggle_recording_button")).click()


def settings(d, scroll: bool = False) -> None:
    d(resourceId=rid("settings")).click()
    if scroll:  # the Recycle Bin rows sit below the fold on a phone, as on the real app
        drag(d, 540, 1900, 540, 600)


def test_fresh_install_recorder_page(recorder, adbd):
    d = recorder
    assert texts(d, "tab_item_label") == ["Recorder", "Player", "Recycle Bin"]
    assert d(description="Settings").info["resourceName"] == rid("settings")
    assert d(description="About").info["resourceName"] == rid("about")
    assert not d(description="More options").exists  # F-Droid: no "More apps from us"
    assert d(resourceId=rid("recording_duration")).get_text() == "00:00"
    assert d(resourceId=rid("toggle_recording_button")).info["contentDescription"] in ("", None)
    assert not d(resourceId=rid("toggle_pause_button")).exists
    d(text="Player").click()
    assert (
        d(resourceId=rid("recordings_placeholder")).get_text() == "No recordings created by this app\nhave been found"
    )


def test_recording_lands_in_the_recordings_folder(recorder, adbd):
    d = recorder
    record(d, 3)
    names = [f for f in files(adbd) if f.endswith(".m4a")]
    assert names == ["2024_05_15_09_00_00.m4a", "2024_05_15_09_00_01.m4a", "2024_05_15_09_00_02.m4a"]
    d(text="Player").click()
    assert texts(d, "recording_title") == names[::-1]  # newest first
    assert texts(d, "recording_duration") == ["00:01"] * 3
    assert texts(d, "recording_size") == ["15.6 kB"] * 3  # 128 kbps for a second
    assert texts(d, "recording_date")[0] == "15.05.2024, 09:00 AM"
    d(text=names[0]).click()
    assert d(resourceId=rid("player_title")).get_text() == names[0]
    assert d(description="Play / Pause").exists
    adbd.shell(f"pm clear {PKG}")  # recordings are shared storage: they stay
    d.app_start(PKG)
    d(text="Player").click()
    assert len(texts(d, "recording_title")) == 3


def test_delete_the_last_recording_then_restore_and_delete_from_the_bin(recorder, adbd):
    d = recorder
    record(d)
    d(text="Player").click()
    d(resourceId=rid("overflow_menu_icon")).click()
    menu = [n.get("text") for n in ET.fromstring(d.dump_hierarchy()).iter("node")
            if n.get("resource-id") == "android:id/title"]  # fmt: skip
    assert menu == ["Rename", "Share", "Delete", "Open with"]
    d(resourceId="android:id/title", text="Delete").click()
    assert d(resourceId=rid("delete_remember_title")).get_text() == (
        'Are you sure you want to move "2024_05_15_09_00_00.m4a" into the Recycle Bin?'
    )
    assert not d(resourceId=rid("skip_the_recycle_bin_checkbox")).info["checked"]
    d(text="Yes").click()
    prompt = d(resourceId="android:id/alertTitle")
    assert prompt.get_text() == "Allow Voice Recorder to move this audio file to trash?"
    assert prompt.info["packageName"] == MEDIA_PROVIDER
    d(text="Allow").click()
    assert "No recordings" in d(resourceId=rid("recordings_placeholder")).get_text()
    trashed = [f for f in files(adbd) if f.startswith(".trashed-")]
    assert len(trashed) == 1 and trashed[0].endswith("-2024_05_15_09_00_00.m4a")
    d(text="Recycle Bin").click()
    assert texts(d, "recording_title") == ["2024_05_15_09_00_00.m4a"]
    d(resourceId=rid("overflow_menu_icon")).click()
    d(text="Restore this file").click()
    d(text="Allow").click()
    assert d(resourceId=rid("trash_placeholder")).get_text() == "The Recycle Bin is empty"
    assert files(adbd) == ["2024_05_15_09_00_00.m4a"]
    d(text="Player").click()
    d(resourceId=rid("overflow_menu_icon")).click()
    d(text="Delete").click()
    d(resourceId=rid("skip_the_recycle_bin_checkbox")).click()
    d(text="Yes").click()
    assert d(resourceId="android:id/alertTitle").get_text() == "Allow Voice Recorder to delete this audio file?"
    d(text="Allow").click()
    assert files(adbd) == []


def test_delete_all_through_selection_mode(recorder, adbd):
    d = recorder
    record(d, 3)
    d(text="Player").click()
    d(resourceId=rid("recording_frame")).long_click()
    assert d(resourceId=rid("actionbar_title")).get_text() == "1 / 3"
    assert d(description="Rename").exists and d(description="Delete").exists
    d(resourceId=rid("actionbar_title")).click()  # selects all
    assert d(resourceId=rid("actionbar_title")).get_text() == "3 / 3"
    assert not d(description="Rename").exists
    d(resourceId=rid("cab_delete")).click()
    assert d(resourceId=rid("delete_remember_title")).get_text() == (
        "Are you sure you want to move 3 recordings into the Recycle Bin?"
    )
    d(text="Yes").click()
    assert d(resourceId="android:id/alertTitle").get_text() == "Allow Voice Recorder to move 3 audio files to trash?"
    d(text="Deny").click()
    assert len(texts(d, "recording_title")) == 3  # nothing happens without Allow
    d(resourceId=rid("recording_frame")).long_click()
    d(resourceId=rid("actionbar_title")).click()
    d(resourceId=rid("cab_delete")).click()
    d(text="Yes").click()
    d(text="Allow").click()
    assert "No recordings" in d(resourceId=rid("recordings_placeholder")).get_text()


@pytest.mark.parametrize("typed", ["voice", "voice.m4a"])
def test_rename_the_first_recording(recorder, adbd, typed):
    d = recorder
    record(d)
    d(text="Player").click()
    d(resourceId=rid("overflow_menu_icon")).click()
    d(text="Rename").click()
    assert d(resourceId=rid("alertTitle")).get_text() == "Rename"
    field = d(resourceId=rid("rename_recording_title"))
    assert field.get_text() == "2024_05_15_09_00_00"
    field.clear_text()
    adbd.shell(["input", "text", typed])
    d(text="OK").click()
    assert d(resourceId=rid("recording_title")).get_text().lower() == "voice.m4a"
    assert files(adbd) == ["voice.m4a"]


def test_long_press_selects_the_name_and_typing_replaces_it(recorder, adbd):
    """Android selects the word under a long press: digits and underscores make one word."""
    d = recorder
    record(d)
    d(text="Player").click()
    d(resourceId=rid("overflow_menu_icon")).click()
    d(text="Rename").click()
    field = d(resourceId=rid("rename_recording_title"))
    field.long_click()
    adbd.shell(["input", "keyevent", "DEL"])  # deletes the selection, not one character
    assert field.get_text() == ""
    adbd.shell(["input", "text", "voice"])
    d(text="OK").click()
    assert files(adbd) == ["voice.m4a"]


def test_rename_all_recordings(recorder, adbd):
    d = recorder
    record(d, 3)
    d(text="Player").click()
    for i in range(3):
        d(resourceId=rid("overflow_menu_icon"), instance=i).click()
        d(text="Rename").click()
        d(resourceId=rid("rename_recording_title")).clear_text()
        adbd.shell(["input", "text", f"voice{i + 1}"])
        d(text="OK").click()
    assert texts(d, "recording_title") == ["voice1.m4a", "voice2.m4a", "voice3.m4a"]


def test_bitrate_and_extension_apply_to_new_recordings(recorder, adbd):
    d = recorder
    settings(d)
    assert d(resourceId=rid("settings_bitrate")).get_text() == "128 kbps"
    d(resourceId=rid("settings_bitrate_holder")).click()
    options = [n.get("text") for n in ET.fromstring(d.dump_hierarchy()).iter("node")
               if n.get("class") == "android.widget.RadioButton"]  # fmt: skip
    assert options == ["32 kbps", "64 kbps", "96 kbps", "128 kbps", "160 kbps", "192 kbps", "256 kbps", "320 kbps"]
    d(text="32 kbps").click()
    assert d(text="Bitrate").exists and d(text="32 kbps").exists
    d(resourceId=rid("settings_extension_holder")).click()
    d(text="mp3").click()
    assert d(text="Extension").exists and d(resourceId=rid("settings_extension")).get_text() == "mp3"
    adbd.shell(f"am force-stop {PKG}")
    d.app_start(PKG)
    record(d)
    assert files(adbd) == ["2024_05_15_09_00_00.mp3"]
    d(text="Player").click()
    assert d(resourceId=rid("recording_size")).get_text() == "3.9 kB"


def test_recycle_bin_setting_off_removes_the_tab_and_deletes_directly(recorder, adbd):
    d = recorder
    record(d)
    settings(d)
    box = d(resourceId=rid("settings_use_recycle_bin"))
    assert box.get_text() == "Move items into the Recycle Bin instead of deleting" and box.info["checked"]
    d(resourceId=rid("settings_use_recycle_bin_holder")).click()
    assert not box.info["checked"]
    assert not d(resourceId=rid("settings_empty_recycle_bin_holder")).exists
    d.press("back")
    assert texts(d, "tab_item_label") == ["Recorder", "Player"]
    d(text="Player").click()
    d(resourceId=rid("overflow_menu_icon")).click()
    d(text="Delete").click()
    assert d(resourceId=rid("delete_remember_title")).get_text() == 'Delete "2024_05_15_09_00_00.m4a"?'
    assert not d(resourceId=rid("skip_the_recycle_bin_checkbox")).exists
    d(text="Yes").click()
    d(text="Allow").click()
    assert files(adbd) == []


def test_empty_the_recycle_bin(recorder, adbd):
    d = recorder
    settings(d, scroll=True)
    assert d(resourceId=rid("settings_empty_recycle_bin_size")).get_text() == "0 B"
    d(resourceId=rid("settings_empty_recycle_bin_holder")).click()
    assert d.toast.get_message(0, default="") == "The Recycle Bin is empty"
    d.press("back")
    record(d, 2)
    d(text="Player").click()
    d(resourceId=rid("recording_frame")).long_click()
    d(resourceId=rid("actionbar_title")).click()
    d(resourceId=rid("cab_delete")).click()
    d(text="Yes").click()
    d(text="Allow").click()
    settings(d, scroll=True)
    assert d(resourceId=rid("settings_empty_recycle_bin_size")).get_text() == "31.2 kB"
    d(text="Empty the Recycle Bin").click()
    assert d(resourceId=rid("message")).get_text().startswith("Are you sure you want to empty the Recycle Bin?")
    d(text="Yes").click()
    d(text="Allow").click()
    assert d(resourceId=rid("settings_empty_recycle_bin_size")).get_text() == "0 B"
    assert files(adbd) == []


def test_recycle_bin_tab_and_search(recorder, adbd):
    d = recorder
    d(text="Recycle Bin").click()
    assert d(resourceId=rid("trash_placeholder")).get_text() == "The Recycle Bin is empty"
    d(text="Recorder").click()
    record(d, 2)
    d(resourceId=rid("top_toolbar_search")).click()  # switches to the Player
    adbd.shell(["input", "text", "01"])
    assert texts(d, "recording_title") == ["2024_05_15_09_00_01.m4a"]
    d(resourceId=rid("top_toolbar_search")).set_text("zzz")
    assert d(resourceId=rid("recordings_placeholder")).get_text() == "No items found."


def test_change_app_theme_to_dark_red(recorder, adbd):
    d = recorder
    settings(d)
    d(resourceId=rid("settings_color_customization_holder")).click()
    assert "CustomizationActivity" in adbd.shell("dumpsys activity top")
    assert d(resourceId=rid("customization_theme")).get_text() == "System default (Material You)"
    assert not d(description="Save").exists
    d(resourceId=rid("customization_theme_holder")).click()
    assert d(resourceId=rid("message")).get_text().startswith("WARNING: Some launchers")
    d(text="OK").click()
    d(text="Dark red").click()
    assert d(text="Theme").exists and d(text="Dark red").exists
    assert d(resourceId=rid("customization_primary_color_holder")).exists
    d(description="Save").click()
    assert "SettingsActivity" in adbd.shell("dumpsys activity top")
    prefs = json.loads(adbd.shell(f"cat /data/data/{PKG}/files/prefs.json"))
    assert prefs["theme"] == "Dark red" and prefs["primary_color"] == "#D32F2F"
    d(resourceId=rid("settings_color_customization_holder")).click()
    assert d(resourceId=rid("customization_theme")).get_text() == "Dark red"
    d(resourceId=rid("customization_theme_holder")).click()  # the warning shows only once
    d(text="Light").click()
    d.press("back")  # unsaved: asks
    d(text="Discard").click()
    assert json.loads(adbd.shell(f"cat /data/data/{PKG}/files/prefs.json"))["theme"] == "Dark red"


def test_tab_click_event_carries_the_tab_label():
    """A click on a TabView (a container) reports its descendants' texts, as Android does."""
    from pytest_mobile_agent.virtual.boot import boot
    from pytest_mobile_agent.virtual.core.config import DeviceConfig

    device = boot(Path(tempfile.mkdtemp()), DeviceConfig(serial="events"))
    app = device.packages.app(PKG)
    device.wm.start_activity(app, app.main_activity, launcher=True)
    label = next(v for w in device.wm.frame().windows for v in w.root.walk() if v.text == "Recycle Bin")
    l, t, r, b = label.visible_bounds  # the hit test finds the clickable TabView around it
    device.wm.tap((l + r) // 2, (t + b) // 2)
    clicks = [e for e in device.accessibility.history if e.type == "TYPE_VIEW_CLICKED"]
    assert clicks and "Recycle Bin" in clicks[-1].text
    assert any(v.id == rid("trash_placeholder") for w in device.wm.frame().windows for v in w.root.walk())


def test_fidelity_doc_lists_every_id_of_the_model(tmp_path):
    """Every id the modules name literally and every id on the activities' screens is in the doc."""
    doc = fidelity_doc("voicerecorder")
    names = literal_ids(package_source("voicerecorder")) | screen_ids(tmp_path, PKG)
    missing = sorted(n for n in names if f"`{n}`" not in doc and not re.search(rf"`[^`]*\b{n}\b", doc))
    assert not missing, f"ids missing from docs/fidelity/voicerecorder.md: {missing}"


def test_horizontal_swipes_move_between_the_pages(recorder, adbd):
    d = recorder
    bounds = d(resourceId=rid("view_pager")).info["bounds"]
    y, left, right = (bounds["top"] + bounds["bottom"]) // 2, bounds["left"] + 40, bounds["right"] - 40
    assert d(resourceId=rid("toggle_recording_button")).exists
    adbd.shell(f"input swipe {right} {y} {left} {y} 250")
    assert not d(resourceId=rid("toggle_recording_button")).exists
    tab = d(className="androidx.appcompat.app.ActionBar$Tab", selected=True)
    assert tab.child(resourceId=rid("tab_item_label")).get_text() == "Player"
    adbd.shell(f"input swipe {left} {y} {right} {y} 250")
    assert d(resourceId=rid("toggle_recording_button")).exists


def test_a_recording_row_is_two_lines_with_its_duration_and_size_at_the_end(recorder):
    """item_recording.xml: title then duration on the first line, date then size on the second,
    the overflow icon after both; and the duration is drawn where its bounds say."""
    d = recorder
    record(d)
    d(text="Player").click()

    def box(name: str) -> tuple[int, int, int, int]:
        b = d(resourceId=rid(name)).info["bounds"]
        return b["left"], b["top"], b["right"], b["bottom"]

    names = ("recording_title", "recording_duration", "recording_date", "recording_size", "overflow_menu_icon")
    title, duration, date, size, menu = (box(n) for n in names)
    assert title[2] <= duration[0] and date[2] <= size[0], "the duration and size are not after the texts"
    assert title[1] < (duration[1] + duration[3]) / 2 < title[3], "the duration is not on the title's line"
    assert date[1] < (size[1] + size[3]) / 2 < date[3], "the size is not on the date's line"
    assert title[3] <= date[1] and duration[3] <= size[1], "the second line is not below the first"
    assert duration[2] <= menu[0] and size[2] <= menu[0]
    shot = d.screenshot(format="pillow").convert("RGB").crop(duration)
    assert any(sum(shot.getpixel((x, y))) < 450 for x in range(shot.width) for y in range(shot.height)), (
        "nothing drawn where the duration is"
    )
