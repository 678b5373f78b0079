"""Simple Gallery Pro on the virtual device: folders and media from /sdcard, the toolbar dialogs,
favourites, the wallpaper flow and settings, driven through uiautomator2 like the benchmark."""

from __future__ import annotations

import os
import time

import pytest
from drags import drag
from fidelity_docs import fidelity_doc, model_ids

PKG = "com.simplemobiletools.gallery.pro"
SD = "/storage/emulated/0"
# Files this module pushes (device path under /sdcard, size); removed after each test.
FILES = {
    "Download/wallpaper.png": 300,
    "Download/notes_scan.jpg": 100,
    "Download/clip.mp4": 500,
    "Download/funny.gif": 200,
    "GalleryTestGifs/only.gif": 50,
    "GalleryTestHidden/.nomedia": 0,
    "GalleryTestHidden/secret.jpg": 10,
}


def rid(name: str) -> str:
    return f"{PKG}:id/{name}"


@pytest.fixture
def gallery(u2d, adbd, vdevice):
    now = time.time()
    for i, (path, size) in enumerate(FILES.items()):
        adbd.sync.push(b"\x89PNG" + b"x" * size, f"/sdcard/{path}")
        # wallpaper.png is the newest file, so it is the first thumbnail of Download.
        os.utime(vdevice.root / SD.lstrip("/") / path, (now - i * 60, now - i * 60))
    adbd.shell(f"pm clear {PKG}")
    u2d.app_start(PKG)
    yield u2d
    adbd.shell(["rm", "-rf", *{f"/sdcard/{p}" for p in FILES}, "/sdcard/GalleryTestGifs", "/sdcard/GalleryTestHidden"])
    adbd.shell(f"pm clear {PKG}")


def overflow(d, title: str) -> None:
    d(description="More options").click()
    d(text=title).click()


def folder_names(d) -> list[str]:
    return [v.info["text"] for v in d(resourceId=rid("dir_name"))]


def open_download(d) -> None:
    d(resourceId=rid("dir_name"), text="Download").click()


def scroll_to(d, **selector) -> None:
    for _ in range(8):
        if d(**selector).exists:
            return
        drag(d, 540, 1900, 540, 900)
    raise AssertionError(f"not found: {selector}")


def test_folders_screen(gallery):
    d = gallery
    assert d(resourceId=rid("directories_coordinator")).exists
    assert d(resourceId=rid("top_toolbar_search_icon")).info["contentDescription"] == "Search"
    assert d(description="Open camera").info["resourceName"] == rid("open_camera")
    assert d(description="Show all folders content").info["resourceName"] == rid("show_all")
    names = folder_names(d)
    assert "Download" in names and "GalleryTestGifs" in names and "GalleryTestHidden" not in names
    holder = d(resourceId=rid("dir_holder")).child(resourceId=rid("dir_name"), text="Download")
    assert holder.sibling(resourceId=rid("photo_cnt")).get_text() == str(
        int(d(text="Download").sibling(resourceId=rid("photo_cnt")).get_text())
    )
    d(description="More options").click()
    items = [v.info["text"] for v in d(resourceId=rid("title"))]
    assert items[:4] == ["Sort by", "Filter media", "Change view type", "Temporarily show hidden"]
    assert "Column count" in items and items[-2:] == ["Settings", "About"]
    assert "More apps from us" not in items


def test_filter_by_images_and_videos(gallery, adbd):
    d = gallery
    overflow(d, "Filter media")
    assert d(resourceId=rid("alertTitle")).get_text() == "Filter media"
    checked = {
        n: d(resourceId=rid(f"filter_media_{n}")).info["checked"]
        for n in ("images", "videos", "gifs", "raws", "svgs", "portraits")
    }
    assert checked == {"images": True, "videos": True, "gifs": True, "raws": True, "svgs": True, "portraits": False}
    for name in ("gifs", "raws", "svgs"):
        d(resourceId=rid(f"filter_media_{name}")).click()
    d(resourceId="android:id/button1").click()
    assert "GalleryTestGifs" not in folder_names(d) and "Download" in folder_names(d)
    adbd.shell(f"am force-stop {PKG}")
    d.app_start(PKG)
    overflow(d, "Filter media")
    assert not d(resourceId=rid("filter_media_gifs")).info["checked"]
    assert d(resourceId=rid("filter_media_videos")).info["checked"]
    # Portraits only: nothing matches, so the placeholders show.
    for name in ("images", "videos", "portraits"):
        d(resourceId=rid(f"filter_media_{name}")).click()
    d(text="OK").click()
    placeholder = d(resourceId=rid("directories_empty_placeholder")).get_text()
    assert placeholder == "No media files have been found with the selected filters."
    d(resourceId=rid("directories_empty_placeholder_2"), text="Change filters").click()
    assert d(resourceId=rid("alertTitle")).get_text() == "Filter media"


def test_group_by_file_type_in_download(gallery):
    d = gallery
    open_download(d)
    assert d(resourceId=rid("media_coordinator")).exists
    assert d(resourceId=rid("top_toolbar_search_icon")).info["contentDescription"] == "Back"
    assert d(description="Toggle filename visibility").exists and d(description="Sort by").exists
    assert not d(resourceId=rid("thumbnail_section")).exists
    overflow(d, "Group by")
    assert d(resourceId=rid("grouping_dialog_radio_none")).info["checked"]
    assert not d(resourceId=rid("grouping_dialog_radio_folder")).exists  # only in "show all"
    d(resourceId=rid("grouping_dialog_radio_file_type")).click()
    assert d(resourceId=rid("grouping_dialog_radio_file_type")).info["checked"]
    d(text="OK").click()
    sections = [v.info["text"] for v in d(resourceId=rid("thumbnail_section"))]
    assert sections[:3] == ["Images", "Videos", "GIFs"]
    d(description="Back").click()
    assert d(resourceId=rid("directories_coordinator")).exists


def test_list_view_type(gallery, adbd):
    d = gallery
    overflow(d, "Change view type")
    assert not d(resourceId=rid("alertTitle")).exists  # this dialog has no title
    assert d(resourceId=rid("change_view_type_dialog_radio_grid")).info["checked"]
    d(resourceId=rid("change_view_type_dialog_radio_list")).click()
    d(text="OK").click()
    assert d(resourceId=rid("dir_path")).get_text() == f"{SD}/"
    d(description="More options").click()
    assert not d(text="Column count").exists
    d.press("back")
    adbd.shell(f"am force-stop {PKG}")
    d.app_start(PKG)
    assert d(resourceId=rid("dir_path")).exists


@pytest.mark.parametrize(
    "name, label",
    [
        ("autoplay_videos", "Play videos automatically"),
        ("remember_last_video_position", "Remember last video playback position"),
    ],
)
def test_video_settings(gallery, adbd, name, label):
    d = gallery
    overflow(d, "Settings")
    assert d(resourceId=rid("settings_toolbar")).child(text="Settings").exists
    scroll_to(d, resourceId=rid(f"settings_{name}_holder"))
    box = d(resourceId=rid(f"settings_{name}"))
    assert box.get_text() == label and not box.info["checked"]
    d(resourceId=rid(f"settings_{name}_holder")).click()
    assert d(resourceId=rid(f"settings_{name}")).info["checked"]
    adbd.shell(f"am force-stop {PKG}")
    d.app_start(PKG)
    overflow(d, "Settings")
    scroll_to(d, resourceId=rid(f"settings_{name}_holder"))
    assert d(resourceId=rid(f"settings_{name}")).info["checked"]


def test_show_hidden_items(gallery, adbd):
    d = gallery
    overflow(d, "Settings")
    assert d(resourceId=rid("settings_show_hidden_items")).get_text() == "Show hidden items"
    d(resourceId=rid("settings_show_hidden_items_holder")).click()
    assert d(resourceId=rid("settings_show_hidden_items")).info["checked"]
    d(description="Back").click()
    assert "GalleryTestHidden" in folder_names(d)
    d(description="More options").click()
    assert not d(text="Temporarily show hidden").exists
    d.press("back")
    adbd.shell(f"pm clear {PKG}")
    d.app_start(PKG)
    assert "GalleryTestHidden" not in folder_names(d)
    overflow(d, "Temporarily show hidden")
    assert "GalleryTestHidden" in folder_names(d)
    overflow(d, "Stop showing hidden media")
    assert "GalleryTestHidden" not in folder_names(d)


def test_set_favorite(gallery, adbd):
    d = gallery
    open_download(d)
    d(resourceId=rid("media_item_holder")).click()
    assert d(resourceId=rid("medium_viewer_toolbar")).child(text="wallpaper.png").exists
    for name, desc in (("favorite", "Toggle favorite"), ("edit", "Edit"), ("share", "Share"), ("delete", "Delete")):
        assert d(resourceId=rid(f"bottom_{name}")).info["contentDescription"] == desc
    assert not d(resourceId=rid("bottom_properties")).exists
    d(resourceId=rid("bottom_favorite")).click()
    assert d(description="Toggle favorite").info["resourceName"] == rid("bottom_favorite")
    d(description="Back").click()
    first = d(resourceId=rid("media_item_holder"))
    assert first.child(resourceId=rid("favorite")).exists
    d(description="Back").click()
    assert folder_names(d)[0] == "Favorites"
    adbd.shell(f"am force-stop {PKG}")
    d.app_start(PKG)
    d(text="Favorites").click()
    assert d(resourceId=rid("media_item_holder")).count == 1


def test_set_wallpaper(gallery, vdevice):
    d = gallery
    open_download(d)
    d(resourceId=rid("media_item_holder")).click()
    overflow(d, "Set as")
    assert d(resourceId="android:id/title").get_text() == "Set as"
    d(text="Simple Wallpaper").click()
    assert d.app_current()["activity"].endswith("SetWallpaperActivity")
    assert d(resourceId=rid("set_wallpaper_toolbar")).child(text="Simple Wallpaper").exists
    d(description="Save").click()
    assert [v.info["text"] for v in d(className="android.widget.RadioButton")] == [
        "Home screen",
        "Lock screen",
        "Home and lock screen",
    ]
    assert not d(resourceId=rid("alertTitle")).exists and not d(resourceId="android:id/button1").exists
    d(text="Home screen").click()
    assert d.app_current()["activity"].endswith("ViewPagerActivity")
    wallpaper = vdevice.root / "data/system/users/0/wallpaper"
    assert wallpaper.read_bytes() == (vdevice.root / SD.lstrip("/") / "Download/wallpaper.png").read_bytes()
    assert not (vdevice.root / "data/system/users/0/wallpaper_lock").exists()


def test_sort_by_size_ascending(gallery, adbd):
    d = gallery
    overflow(d, "Sort by")
    assert d(resourceId=rid("sorting_dialog_radio_last_modified")).info["checked"]
    assert d(resourceId=rid("sorting_dialog_radio_descending")).info["checked"]
    assert d(resourceId=rid("sorting_dialog_radio_custom")).exists
    d(resourceId=rid("sorting_dialog_radio_random")).click()
    assert not d(resourceId=rid("sorting_dialog_radio_order")).exists
    d(resourceId=rid("sorting_dialog_radio_size")).click()
    d(resourceId=rid("sorting_dialog_radio_ascending")).click()
    d(text="OK").click()
    names = folder_names(d)
    assert names.index("GalleryTestGifs") < names.index("Download")  # 54 B before about 1 kB
    adbd.shell(f"am force-stop {PKG}")
    d.app_start(PKG)
    overflow(d, "Sort by")
    assert d(resourceId=rid("sorting_dialog_radio_size")).info["checked"]
    assert d(resourceId=rid("sorting_dialog_radio_ascending")).info["checked"]


def test_use_24_hour_time_format(gallery, adbd):
    d = gallery
    overflow(d, "Settings")
    d(resourceId=rid("settings_change_date_time_format_holder")).click()
    assert d(resourceId=rid("change_date_time_dialog_radio_one")).get_text() == "15.02.2023"
    assert d(resourceId=rid("change_date_time_dialog_radio_five")).get_text() == "15 February 2023"
    box = d(resourceId=rid("change_date_time_dialog_24_hour"))
    assert box.get_text() == "Use 24-hour time format" and not box.info["checked"]
    box.click()
    assert d(resourceId=rid("change_date_time_dialog_24_hour")).info["checked"]
    d(text="OK").click()
    adbd.shell(f"am force-stop {PKG}")
    d.app_start(PKG)
    overflow(d, "Settings")
    d(text="Change date and time format").click()
    assert d(resourceId=rid("change_date_time_dialog_24_hour")).info["checked"]


def test_show_all_and_back_to_folders(gallery, adbd):
    d = gallery
    d(resourceId=rid("show_all")).click()
    assert d.app_current()["activity"].endswith("MediaActivity")
    assert d(resourceId=rid("media_item_holder")).count >= 5
    adbd.shell(f"am force-stop {PKG}")
    d.app_start(PKG)
    assert d.app_current()["activity"].endswith("MediaActivity")
    overflow(d, "Switch to folder view")
    assert d(resourceId=rid("directories_grid")).exists


def test_viewer_properties_rename_and_recycle_bin(gallery, adbd):
    d = gallery
    open_download(d)
    d(resourceId=rid("media_item_holder")).click()
    d(description="Properties").click()
    assert [v.info["text"] for v in d(resourceId=rid("property_label"))][:3] == ["Name", "Path", "Size"]
    d(text="OK").click()
    overflow(d, "Rename")
    d(resourceId=rid("rename_item_name")).set_text("sunset")
    d(text="OK").click()
    assert d(resourceId=rid("medium_viewer_toolbar")).child(text="sunset.png").exists
    assert "sunset.png" in adbd.shell("ls /sdcard/Download")
    d(resourceId=rid("bottom_delete")).click()
    assert d(resourceId=rid("message")).get_text().startswith('Are you sure you want to move "sunset.png"')
    d(text="Yes").click()
    assert "sunset.png" not in adbd.shell("ls /sdcard/Download")
    d(description="Back").click()
    assert folder_names(d)[-1] == "Recycle Bin"
    d(text="Recycle Bin").click()
    overflow(d, "Restore all files")
    assert "sunset.png" in adbd.shell("ls /sdcard/Download")
    adbd.shell("rm /sdcard/Download/sunset.png")


def test_fidelity_doc_lists_every_id():
    """Every resource id the model names (rid("…") and menu rows) is in docs/fidelity/gallery.md."""
    doc = fidelity_doc("gallery")
    ids = model_ids("gallery")
    assert ids and sorted(i for i in ids if i not in doc) == []


def test_the_viewer_pages_through_the_folder_with_horizontal_swipes(gallery, adbd):
    d = gallery
    open_download(d)
    d(resourceId=rid("media_item_holder")).click()
    bounds = d(resourceId=rid("view_pager")).info["bounds"]
    y, left, right = (bounds["top"] + bounds["bottom"]) // 2, bounds["left"] + 40, bounds["right"] - 40

    def shown() -> str:
        return d(resourceId=rid("medium_viewer_toolbar")).child(className="android.widget.TextView").get_text()

    seen = [shown()]
    for _ in range(4):  # the folder's four media, newest first as its grid shows them; none past the last
        adbd.shell(f"input swipe {right} {y} {left} {y} 250")
        seen.append(shown())
    assert seen == ["wallpaper.png", "notes_scan.jpg", "clip.mp4", "funny.gif", "funny.gif"]
    adbd.shell(f"input swipe {left} {y} {right} {y} 250")
    assert shown() == "clip.mp4"
