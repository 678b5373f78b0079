"""Simple App Launcher on the virtual device, driven through uiautomator2 like the benchmark."""

from __future__ import annotations

import json

import pytest
from fidelity_docs import fidelity_doc, model_ids

PKG = "com.simplemobiletools.applauncher"


def rid(name: str) -> str:
    return f"{PKG}:id/{name}"


@pytest.fixture
def launcher(u2d, adbd):
    adbd.shell(f"pm clear {PKG}")
    u2d.app_start(PKG)
    return u2d


def add_chrome_and_camera(d) -> None:
    """The benchmark's setup: FAB, tick Chrome and Camera, OK."""
    d(resourceId=rid("fab")).click()
    for label in ("Chrome", "Camera"):
        if not d(text=label).info["checked"]:
            d(text=label).click()
    d(resourceId="android:id/button1").click()


def labels(d) -> list[str]:
    return [v.info["text"] for v in d(resourceId=rid("launcher_label"))]


def overflow(d, title: str) -> None:
    d(description="More options").click()
    d(text=title).click()


def test_fresh_install_shows_placeholders_and_stub_apps_are_launchable(launcher, adbd):
    d = launcher
    assert d(resourceId=rid("coordinator_layout")).exists
    assert d(resourceId=rid("no_items_placeholder")).get_text() == "No items found."
    assert d(resourceId=rid("no_items_placeholder_2")).get_text() == "Manage visible app icons"
    assert d(resourceId=rid("top_toolbar_search")).exists
    assert d(description="Sort by").info["resourceName"] == rid("sort")
    assert d(description="Toggle app name visibility").exists
    assert not d(text="More apps from us").exists
    packages = adbd.shell("pm list packages")
    assert "package:com.android.chrome" in packages and "package:com.android.camera2" in packages
    assert "com.google.android.apps.maps" not in packages


def test_add_apps_persists_and_pm_clear_resets(launcher, adbd):
    d = launcher
    d(resourceId=rid("fab")).click()
    assert not d(resourceId=rid("alertTitle")).exists  # the add dialog has no title
    rows = [v.info["text"] for v in d(resourceId=rid("launcher_checkbox"))]
    assert rows == sorted(rows, key=str.lower) and "Chrome" in rows and "Camera" in rows
    assert "App Launcher" not in rows
    d(text="Chrome").click()
    d(text="Camera").click()
    assert d(text="Chrome").info["checked"]
    d(text="OK").click()
    assert labels(d) == ["Camera", "Chrome"]
    assert not d(resourceId=rid("no_items_placeholder")).exists
    adbd.shell(f"am force-stop {PKG}")
    d.app_start(PKG)
    assert labels(d) == ["Camera", "Chrome"]
    # Already added apps start checked; unticking removes them on OK.
    d(resourceId=rid("fab")).click()
    camera = d(resourceId=rid("launcher_checkbox"), text="Camera")
    assert camera.info["checked"]
    camera.click()
    d(resourceId="android:id/button1").click()
    assert labels(d) == ["Chrome"]
    adbd.shell(f"pm clear {PKG}")
    d.app_start(PKG)
    assert labels(d) == []
    assert d(text="No items found.").exists


def test_hide_app_name_toggle(launcher):
    d = launcher
    add_chrome_and_camera(d)
    d(resourceId=rid("toggle_app_name")).click()
    assert not d(text="Chrome").exists
    assert d(resourceId=rid("launcher_holder")).count == 2
    assert d(resourceId=rid("launcher_icon")).count == 2
    d(resourceId=rid("toggle_app_name")).click()
    assert labels(d) == ["Camera", "Chrome"]


def test_remove_app_asks_once(launcher):
    d = launcher
    add_chrome_and_camera(d)
    d(text="Chrome").long_click()
    assert d(resourceId=rid("actionbar_title")).get_text() == "1 / 2"
    assert d(description="Rename").info["resourceName"] == rid("cab_edit")
    assert d(description="Change order").exists
    d(resourceId=rid("cab_remove")).click()
    message = "This will just remove the launcher icon from this grid, not uninstall the actual app."
    assert d(resourceId=rid("message")).get_text() == message
    d(text="OK").click()
    assert d(resourceId=rid("coordinator_layout")).exists
    assert d(text="Camera").exists and not d(text="Chrome").exists
    # The explanation shows only the first time.
    d(text="Camera").long_click()
    d(resourceId=rid("cab_remove")).click()
    assert not d(resourceId=rid("message")).exists
    assert labels(d) == []


def test_rename_app(launcher, adbd):
    d = launcher
    add_chrome_and_camera(d)
    d(text="Chrome").long_click()
    d(resourceId=rid("cab_edit")).click()
    assert d(resourceId=rid("alertTitle")).get_text() == "Rename"
    field = d(resourceId=rid("edit_launcher_edittext"))
    assert field.get_text() == "Chrome" and field.info["focused"]
    field.clear_text()
    adbd.shell(["input", "text", "MyChrome"])
    d(text="OK").click()
    assert d(resourceId=rid("coordinator_layout")).exists
    assert labels(d) == ["Camera", "MyChrome"]
    assert not d(resourceId=rid("action_mode_bar")).exists
    adbd.shell(f"am force-stop {PKG}")
    d.app_start(PKG)
    assert d(text="MyChrome").exists


def test_rename_long_press_selects_the_title(launcher, adbd):
    """Typing appends at the cursor; after a long-press on the field it replaces the title."""
    d = launcher
    add_chrome_and_camera(d)
    d(text="Chrome").long_click()
    d(resourceId=rid("cab_edit")).click()
    field = d(resourceId=rid("edit_launcher_edittext"))
    adbd.shell(["input", "text", "X"])
    assert field.get_text() == "ChromeX"
    field.long_click()
    adbd.shell(["input", "text", "MyChrome"])
    assert field.get_text() == "MyChrome"
    field.long_click()
    adbd.shell(["input", "keyevent", "DEL"])
    assert field.get_text() == ""
    adbd.shell(["input", "text", "Web"])
    d(text="OK").click()
    assert labels(d) == ["Camera", "Web"]


def test_search_filters_the_grid(launcher, adbd):
    d = launcher
    add_chrome_and_camera(d)
    d(resourceId=rid("top_toolbar_search")).click()
    assert d(resourceId=rid("top_toolbar_search_icon")).info["contentDescription"] == "Back"
    adbd.shell(["input", "text", "Chrome"])
    assert labels(d) == ["Chrome"]
    assert not d(text="Camera").exists
    d(resourceId=rid("top_toolbar_search_icon")).click()  # closes the search
    assert labels(d) == ["Camera", "Chrome"]
    assert d(resourceId=rid("top_toolbar_search_icon")).info["contentDescription"] == "Search"


def test_setting_close_app_and_launching(launcher, adbd):
    d = launcher
    add_chrome_and_camera(d)
    overflow(d, "Settings")
    box = d(resourceId=rid("settings_close_app"))
    assert box.get_text() == "Close this app at launching a different one" and box.info["checked"]
    assert d(resourceId=rid("settings_language")).get_text() == "English"
    d(resourceId=rid("settings_close_app_holder")).click()
    assert not d(resourceId=rid("settings_close_app")).info["checked"]
    d(resourceId=rid("settings_color_customization_holder")).click()
    assert d.app_current()["activity"].endswith("CustomizationActivity")
    d.press("back")
    adbd.shell(f"am force-stop {PKG}")
    d.app_start(PKG)
    overflow(d, "Settings")
    assert not d(resourceId=rid("settings_close_app")).info["checked"]
    d(description="Back").click()
    # With the setting off, App Launcher stays below the launched app.
    d(text="Camera").click()
    assert d.app_current()["package"] == "com.android.camera2"
    d.press("back")
    assert d.app_current()["package"] == PKG


def test_launching_closes_app_by_default(launcher, adbd):
    d = launcher
    add_chrome_and_camera(d)
    d(text="Chrome").click()
    assert d.app_current()["package"] == "com.android.chrome"
    d.press("back")
    assert d.app_current()["package"] != PKG


def test_sort_title_descending_and_custom(launcher):
    d = launcher
    add_chrome_and_camera(d)
    d(resourceId=rid("sort")).click()
    assert d(resourceId=rid("alertTitle")).get_text() == "Sort by"
    assert d(resourceId=rid("sorting_dialog_radio_title")).info["checked"]
    assert d(resourceId=rid("sorting_dialog_radio_ascending")).info["checked"]
    d(resourceId=rid("sorting_dialog_radio_descending")).click()
    assert d(resourceId=rid("sorting_dialog_radio_descending")).info["checked"]
    d(text="OK").click()
    assert labels(d) == ["Chrome", "Camera"]
    d(resourceId=rid("sort")).click()
    d(resourceId=rid("sorting_dialog_radio_custom")).click()
    assert d(resourceId=rid("sorting_dialog_radio_custom")).info["checked"]
    assert not d(resourceId=rid("sorting_dialog_radio_order")).exists  # gone while Custom is checked
    d(text="OK").click()
    assert labels(d) == ["Camera", "Chrome"]  # custom: the order they were added in (by title)
    d(resourceId=rid("sort")).click()
    assert d(resourceId=rid("sorting_dialog_radio_custom")).info["checked"]


def test_about_faq_and_contributors(launcher):
    d = launcher
    overflow(d, "About")
    assert d.app_current()["activity"].endswith("AboutActivity")
    d(text="Frequently asked questions").click()
    assert d(text="Can I make this app the default launcher?").exists
    d(description="Back").click()
    d(text="Contributors").click()
    assert d.app_current()["activity"].endswith("ContributorsActivity")


def test_column_count_and_select_all(launcher, vdevice):
    d = launcher
    add_chrome_and_camera(d)
    overflow(d, "Column count")
    d(text="2 columns").click()
    state = json.loads((vdevice.root / "data/data" / PKG / "files/prefs.json").read_text())
    assert state["column_count"] == 2
    d(text="Camera").long_click()
    overflow(d, "Select all")
    assert d(resourceId=rid("actionbar_title")).get_text() == "2 / 2"
    assert not d(resourceId=rid("cab_edit")).exists  # rename needs exactly one selection
    d.press("back")
    assert not d(resourceId=rid("action_mode_bar")).exists


def test_fidelity_doc_lists_every_id():
    """Every resource id the model names (rid("…") and menu rows) is in docs/fidelity/applauncher.md."""
    doc = fidelity_doc("applauncher")
    ids = model_ids("applauncher")
    assert ids and sorted(i for i in ids if i not in doc) == []
