"""Simple File Manager Pro on the virtual device: real files under /sdcard, driven by uiautomator2."""

from __future__ import annotations

import hashlib
import xml.etree.ElementTree as ET

import pytest

PKG = "com.simplemobiletools.filemanager.pro"
ACCESS = "android.permission.MANAGE_EXTERNAL_STORAGE"
DOWNLOAD = "/sdcard/Download"


def rid(name: str) -> str:
    return f"{PKG}:id/{name}"


@pytest.fixture
def fm(u2d, adbd):
    adbd.shell(f"rm -rf {DOWNLOAD} /sdcard/fm_test; mkdir -p {DOWNLOAD}")
    adbd.shell(f"pm clear {PKG}")
    adbd.shell(f"pm grant {PKG} {ACCESS}")  # what the bench's setup grants in system settings
    u2d.app_start(PKG)
    return u2d


def nodes(d) -> list[ET.Element]:
    return list(ET.fromstring(d.dump_hierarchy()).iter("node"))


def texts(d, name: str) -> list[str]:
    return [n.get("text", "") for n in nodes(d) if n.get("resource-id") == rid(name)]


def put(adbd, path: str, content: str = "") -> None:
    adbd.shell(f"printf '{content}' > {path}" if content else f"touch {path}")


def ls(adbd, path: str = DOWNLOAD) -> list[str]:
    return sorted(adbd.shell(f"ls -a {path}").split())


def open_download(d) -> None:
    d(resourceId=rid("item_name"), text="Download").click()
    assert texts(d, "breadcrumb_text") == ["Internal", "> Download"]


def overflow(d, title: str) -> None:
    d(description="More options").click()
    d(resourceId=rid("title"), text=title).click()


def test_all_files_access_prompt(u2d, adbd):
    d = u2d
    adbd.shell(f"pm clear {PKG}")
    adbd.shell(f"pm revoke {PKG} {ACCESS}")
    d.app_start(PKG)
    message = "Please grant our app access to all your files, it might not work well without it."
    assert d(resourceId=rid("message")).get_text() == message
    d.press("back")  # refusing closes the app
    assert d.app_current()["package"] != PKG
    d.app_start(PKG)
    d(text="OK").click()  # opens the system's "All files access" screen
    assert d.app_current()["package"] == "com.android.settings"
    assert f"{ACCESS}: granted=true" not in adbd.shell(f"dumpsys package {PKG}")
    d(text="Allow access to manage all files").click()
    assert d(resourceId="android:id/switch_widget").info["checked"]
    d(description="Navigate up").click()
    assert f"{ACCESS}: granted=true" in adbd.shell(f"dumpsys package {PKG}")
    assert "Download" in texts(d, "item_name")
    adbd.shell(f"am force-stop {PKG}")
    d.app_start(PKG)
    assert not d(resourceId=rid("message")).exists


def test_root_listing_menu_and_tabs(fm):
    d = fm
    assert texts(d, "breadcrumb_text") == ["Internal"]
    names = texts(d, "item_name")
    assert {"Alarms", "DCIM", "Download", "Documents"} <= set(names) and names == sorted(names, key=str.lower)
    assert [n.get("content-desc") for n in nodes(d) if n.get("class") == "android.widget.Button"] == [
        "Sort by",
        "Add to favorites",
    ]
    d(description="More options").click()
    assert texts(d, "title") == ["Change view type", "Temporarily show hidden", "Settings", "About"]
    d.press("back")
    assert texts(d, "tab_item_label") == ["Files", "Recents", "Storage"]
    assert not d(resourceId=rid("items_fab")).info["contentDescription"]
    open_download(d)
    assert d(resourceId=rid("items_placeholder")).get_text() == "No items found."
    assert d(description="Go to home folder").info["resourceName"] == rid("go_home")
    d(description="More options").click()
    assert texts(d, "title")[:3] == ["Add to favorites", "Change view type", "Set as home folder"]
    d.press("back")
    d.press("back")  # up one level
    assert texts(d, "breadcrumb_text") == ["Internal"]


def test_storage_page(fm, adbd):
    d = fm
    put(adbd, f"{DOWNLOAD}/photo.jpg", "x" * 2048)
    put(adbd, f"{DOWNLOAD}/notes.txt", "x" * 1536)
    put(adbd, f"{DOWNLOAD}/report.pdf", "x" * 1024)
    put(adbd, f"{DOWNLOAD}/empty.txt")
    d(text="Storage").click()  # filemanager_check_storage
    assert d(resourceId=rid("total_space")).get_text() == "Total storage: 32 GB"
    assert d(resourceId=rid("storage_name")).get_text() == "Internal"
    assert texts(d, "images_label") == ["Images"] and texts(d, "others_label") == ["Others"]
    assert d(resourceId=rid("images_size")).get_text() == "2 kB"
    assert d(resourceId=rid("documents_size")).get_text() == "2.5 kB"
    assert not d(description="Sort by").exists
    # The usage bar: 8 of 32 GB used fills its first quarter with the primary colour.
    x0, y0, x1, y1 = (d(resourceId=rid("main_storage_usage_progressbar")).info["bounds"][k] for k in BOX)
    shot, y = d.screenshot(), (y0 + y1) // 2
    fill, track = shot.getpixel((x0 + (x1 - x0) // 8, y)), shot.getpixel((x0 + (x1 - x0) * 3 // 4, y))
    assert near(fill, (245, 124, 0)) and near(track, (253, 222, 191))  # the track: 25 % over white
    # A category opens its files, newest sorting as the folder's, empty files left out.
    d(resourceId=rid("documents_holder")).click()
    assert d(resourceId=rid("mimetypes_toolbar")).child(text="Documents").exists
    assert texts(d, "item_name") == ["notes.txt", "report.pdf"]
    d(description="Search").click()
    adbd.shell(["input", "text", "r"])
    assert texts(d, "mimetypes_placeholder_2") == ["Type in at least 2 characters to start the search."]
    adbd.shell(["input", "text", "ep"])
    assert texts(d, "item_name") == ["report.pdf"]
    d.press("back")  # the keyboard
    d.press("back")  # the search
    assert texts(d, "item_name") == ["notes.txt", "report.pdf"]
    d(resourceId=rid("item_name"), text="notes.txt").click()
    assert d(resourceId=rid("read_text_view")).get_text() == "x" * 1536
    d.press("back")
    d(resourceId=rid("item_name"), text="report.pdf").long_click()  # the same action mode as the Files tab
    assert d(resourceId=rid("actionbar_title")).get_text() == "1 / 2"
    d(description="Delete").click()
    d(text="Yes").click()
    assert texts(d, "item_name") == ["notes.txt"] and "report.pdf" not in ls(adbd)
    d.press("back")
    assert d(resourceId=rid("storage_name")).exists


BOX = ("left", "top", "right", "bottom")


def near(pixel: tuple, rgb: tuple[int, int, int]) -> bool:
    """The screenshot is a JPEG: colours come back a few units off."""
    return sum(abs(a - b) for a, b in zip(pixel[:3], rgb)) < 16


def test_grid_view_column_count_and_filenames(fm, adbd):
    d = fm
    adbd.shell(f"mkdir {DOWNLOAD}/sub")
    for name in ("a.txt", "b.pdf", "c.mp3", "d.jpg"):
        put(adbd, f"{DOWNLOAD}/{name}", "x")
    open_download(d)
    overflow(d, "Change view type")
    d(resourceId=rid("change_view_type_dialog_radio_grid")).click()
    d(resourceId=rid("change_view_type_dialog_use_for_this_folder")).click()
    d(text="OK").click()
    assert texts(d, "item_name") == ["sub", "a.txt", "b.pdf", "c.mp3", "d.jpg"]
    assert not texts(d, "item_details")  # grid cells carry the name only

    def tops() -> dict[str, tuple[int, int]]:
        return {
            n.get("text"): tuple(int(v) for v in n.get("bounds")[1:-1].split("][")[0].split(","))
            for n in nodes(d)
            if n.get("resource-id") == rid("item_name")
        }

    at = tops()  # three columns: folders on their own line, then files three to a line
    assert at["a.txt"][1] == at["b.pdf"][1] == at["c.mp3"][1] > at["sub"][1]
    assert at["a.txt"][0] < at["b.pdf"][0] < at["c.mp3"][0] and at["d.jpg"][1] > at["c.mp3"][1]
    overflow(d, "Column count")
    assert d(text="3 columns").info["checked"] and d(text="1 column").exists
    d(text="2 columns").click()
    at = tops()
    assert at["a.txt"][1] == at["b.pdf"][1] < at["c.mp3"][1] == at["d.jpg"][1]
    d(resourceId=rid("item_name"), text="b.pdf").long_click()  # a selected cell shows its check
    assert len(texts(d, "item_check")) == 1
    d.press("back")
    overflow(d, "Toggle filename visibility")
    assert texts(d, "item_name") == ["sub"]  # folders keep their names
    d.press("back")  # up to Internal: its own view type is still the list
    assert texts(d, "item_details")
    d(description="More options").click()
    assert "Column count" not in texts(d, "title")


def test_create_new_file_and_folder_in_download(fm, adbd):
    d = fm
    open_download(d)  # filemanager_create_new_file
    d(resourceId=rid("items_fab")).click()
    assert d(resourceId=rid("alertTitle")).get_text() == "Create new"
    assert d(resourceId=rid("item_title")).info["focused"]
    assert d(resourceId=rid("dialog_radio_directory")).info["checked"]
    adbd.shell(["input", "text", "testfile.txt"])
    d(resourceId=rid("dialog_radio_file")).click()
    d(text="OK").click()
    assert texts(d, "item_name") == ["testfile.txt"]
    assert texts(d, "item_details") == ["0 B"]
    assert texts(d, "item_date") == ["15.05.2024, 09:00 AM"]
    assert ls(adbd) == [".", "..", "testfile.txt"]
    d(resourceId=rid("items_fab")).click()
    adbd.shell(["input", "text", "testfile.txt"])
    d(text="OK").click()
    assert d.toast.get_message(0, default="") == "A file or folder with that name already exists"
    d(resourceId=rid("item_title")).set_text("notes")
    d(text="OK").click()  # a folder, the default
    assert texts(d, "item_name") == ["notes", "testfile.txt"]
    assert texts(d, "item_details") == ["0 items", "0 B"]
    assert "notes" in adbd.shell(f"ls -d {DOWNLOAD}/notes")


def test_file_properties(fm, adbd):
    d = fm
    put(adbd, f"{DOWNLOAD}/Testfile.txt", "hello")
    open_download(d)
    d(text="Testfile.txt").long_click()  # filemanager_check_file_properties
    assert d(resourceId=rid("actionbar_title")).get_text() == "1 / 1"
    assert [n.get("content-desc") for n in nodes(d) if n.get("class") == "android.widget.Button"][-3:] == [
        "Delete",
        "Properties",
        "Rename",
    ]
    d(resourceId=rid("cab_properties")).click()
    dialog_window = list(ET.fromstring(d.dump_hierarchy()))[-1]  # the bench reads this window's texts
    dialog = [n.get("text") for n in dialog_window.iter("node") if n.get("text")]
    assert dialog[0] == "Properties" and dialog[2] == "Testfile.txt" and len(dialog) == 12
    assert texts(d, "property_label") == ["Name", "Path", "Size", "Last modified", "MD5"]
    values = texts(d, "property_value")
    assert values[1] == "/storage/emulated/0/Download" and values[2] == "5 B"
    assert values[4] == hashlib.md5(b"hello").hexdigest()
    d(text="OK").click()
    assert d(resourceId=rid("action_mode_bar")).exists


def test_rename_file(fm, adbd):
    d = fm
    put(adbd, f"{DOWNLOAD}/Testfile.txt")
    open_download(d)
    d(text="Testfile.txt").long_click()  # filemanager_rename_file
    d(resourceId=rid("cab_rename")).click()
    assert d(resourceId=rid("alertTitle")).get_text() == "Rename"
    assert d(resourceId=rid("rename_item_name")).get_text() == "Testfile"
    assert d(resourceId=rid("rename_item_extension")).get_text() == "txt"
    d(resourceId=rid("rename_item_name")).set_text("testfile1.txt")
    d(resourceId=rid("rename_item_extension")).set_text("")
    assert d(resourceId=rid("rename_item_name")).get_text() == "testfile1.txt"
    d(text="OK").click()
    assert texts(d, "item_name") == ["testfile1.txt"]
    assert ls(adbd) == [".", "..", "testfile1.txt"]


def test_delete_file_and_several_videos(fm, adbd):
    d = fm
    for name in ("iccv.mp3", "icml.mp4", "aaai.txt", "corl.avi", "neurips.exe", "cvpr.mov"):
        put(adbd, f"{DOWNLOAD}/{name}")
    open_download(d)
    d(text="aaai.txt").long_click()  # filemanager_delete_file / _delete_txt
    d(resourceId=rid("cab_delete")).click()
    assert d(resourceId=rid("message")).get_text() == 'Are you sure you want to delete "aaai.txt"?'
    d(text="Yes").click()
    assert "aaai.txt" not in ls(adbd) and not d(text="aaai.txt").exists
    d(text="icml.mp4").long_click()  # filemanager_delete_videos
    d(text="corl.avi").click()
    d(text="cvpr.mov").click()
    assert d(resourceId=rid("actionbar_title")).get_text() == "3 / 5"
    d(resourceId=rid("cab_delete")).click()
    assert d(resourceId=rid("message")).get_text() == "Are you sure you want to delete 3 items?"
    d(text="Yes").click()
    assert texts(d, "item_name") == ["iccv.mp3", "neurips.exe"]
    assert ls(adbd) == [".", "..", "iccv.mp3", "neurips.exe"]
    assert texts(d, "breadcrumb_text") == ["Internal", "> Download"]


def test_hide_folder_and_hidden_items(fm, adbd):
    d = fm
    open_download(d)
    d(resourceId=rid("items_fab")).click()  # the bench's setup: a folder "hidden"
    adbd.shell(["input", "text", "hidden"])
    d(text="OK").click()
    overflow(d, "Temporarily show hidden")
    d(text="hidden").long_click()  # filemanager_hide_folder
    overflow(d, "Hide")
    assert texts(d, "item_name") == [".hidden"]
    assert ls(adbd) == [".", "..", ".hidden"]
    overflow(d, "Stop showing hidden media")
    assert texts(d, "item_name") == []
    d(description="More options").click()
    assert "Temporarily show hidden" in texts(d, "title")
    d.press("back")
    # The setting shows hidden items for good.
    overflow(d, "Settings")
    d(resourceId=rid("settings_show_hidden_holder")).click()
    assert d(resourceId=rid("settings_show_hidden")).info["checked"]
    d.press("back")
    assert texts(d, "item_name") == [".hidden"]
    d(text=".hidden").long_click()
    overflow(d, "Unhide")
    assert ls(adbd) == [".", "..", "hidden"]


def test_search_file(fm, adbd):
    d = fm
    put(adbd, f"{DOWNLOAD}/testfile.txt")
    put(adbd, f"{DOWNLOAD}/other.txt")
    d(resourceId=rid("top_toolbar_search")).click()  # filemanager_search_file
    adbd.shell(["input", "text", "t"])
    assert d(resourceId=rid("items_placeholder_2")).exists
    adbd.shell(["input", "text", "estfile.txt"])
    assert d(resourceId=rid("top_toolbar_search")).get_text() == "testfile.txt"
    assert texts(d, "item_section") == ["Internal/Download"]
    assert texts(d, "item_name") == ["testfile.txt"]
    d.press("back")
    d.press("back")
    assert "Download" in texts(d, "item_name")


def test_sort_by_size_descending(fm, adbd):
    d = fm
    adbd.shell("mkdir -p /sdcard/fm_test/big /sdcard/fm_test/small")
    put(adbd, "/sdcard/fm_test/big/a.bin", "x" * 5000)
    put(adbd, "/sdcard/fm_test/small/a.bin", "x" * 10)
    put(adbd, "/sdcard/fm_test/mid.bin", "x" * 100)
    put(adbd, "/sdcard/fm_test/tiny.bin", "x")
    d(description="Sort by").click()  # filemanager_sort_folder_by_size_desc
    assert d(resourceId=rid("sorting_dialog_radio_name")).info["checked"]
    assert d(resourceId=rid("sorting_dialog_numeric_sorting")).info["checked"]
    d(resourceId=rid("sorting_dialog_radio_size")).click()
    d(resourceId=rid("sorting_dialog_radio_descending")).click()
    assert d(resourceId=rid("sorting_dialog_radio_size")).get_text() == "Size"
    assert not d(resourceId=rid("sorting_dialog_numeric_sorting")).exists
    d(text="OK").click()
    d(text="fm_test").click()
    assert texts(d, "item_name") == ["big", "small", "mid.bin", "tiny.bin"]
    adbd.shell(f"am force-stop {PKG}")
    d.app_start(PKG)
    d(text="fm_test").click()
    assert texts(d, "item_name") == ["big", "small", "mid.bin", "tiny.bin"]


def test_text_file_opens_in_the_editor_and_about(fm, adbd):
    d = fm
    put(adbd, f"{DOWNLOAD}/readme.txt", "hello")
    open_download(d)
    d(text="readme.txt").click()
    assert d(resourceId=rid("read_text_view")).get_text() == "hello"
    assert d(resourceId=rid("read_text_toolbar")).child(text="readme.txt").exists
    d.press("back")
    overflow(d, "About")
    assert d(text="Version 6.16.1 Pro").exists


def test_favorites_recents_and_shown_tabs(fm, adbd):
    d = fm
    put(adbd, f"{DOWNLOAD}/new.txt", "x")
    open_download(d)
    overflow(d, "Add to favorites")
    d(description="Go to home folder").click()
    assert texts(d, "breadcrumb_text") == ["Internal"]
    d(description="Go to favorite").click()
    d(text="Internal/Download").click()
    assert texts(d, "breadcrumb_text") == ["Internal", "> Download"]
    d(text="Recents").click()
    assert "new.txt" in texts(d, "item_name")
    d(text="Files").click()
    overflow(d, "Settings")
    d(resourceId=rid("settings_manage_favorites_holder")).click()
    assert texts(d, "manage_favorite_title") == ["/storage/emulated/0/Download"]
    d(resourceId=rid("overflow_menu_icon")).click()
    d(text="Remove").click()
    assert d(resourceId=rid("manage_favorites_placeholder")).exists
    d.press("back")
    d(resourceId=rid("settings_manage_tabs_holder")).click()
    assert texts(d, "manage_visible_tabs_recent_files") == ["Recent files"]
    d(resourceId=rid("manage_visible_tabs_recent_files")).click()
    d(text="OK").click()
    d.press("back")
    assert texts(d, "tab_item_label") == ["Files", "Storage"]
    assert not d(description="Go to favorite").exists


def test_rename_by_selecting_the_name(fm, adbd):
    d = fm
    put(adbd, f"{DOWNLOAD}/Testfile.txt")
    open_download(d)
    d(text="Testfile.txt").long_click()
    d(resourceId=rid("cab_rename")).click()
    adbd.shell(["input", "text", "1"])  # the cursor is after the name
    assert d(resourceId=rid("rename_item_name")).get_text() == "Testfile1"
    d(resourceId=rid("rename_item_name")).long_click()  # selects the name, typing replaces it
    adbd.shell(["input", "text", "testfile1"])
    assert d(resourceId=rid("rename_item_name")).get_text() == "testfile1"
    d(text="OK").click()
    assert ls(adbd) == [".", "..", "testfile1.txt"]
