"""Gallery tasks (MobileAgentBench gallery_*).

Every task starts with three media files in Download (two images and a video, the newest an
image, so "the first image" is the first thumbnail). MobileAgentBench judged most of these by
a click on "OK" after the right box had been seen checked in a dialog, and by a boolean
precedence slip any "OK" click passed the filter and view-type tasks. Here the saved setting
is read back from the app's data, the favourite from its favourites, the wallpaper from where
Android keeps it.
"""

from __future__ import annotations

import pytest

from pytest_mobile_agent import Scroll, Tap, task
from task_suites.shared.apps import GALLERY, rid
from task_suites.shared.media import media_bytes
from task_suites.shared.near_misses import NO_ALLOWANCE, labelled, not_applicable
from task_suites.shared.reading import app_data, pref
from task_suites.shared.seeds import expect_files

DOWNLOAD = "/storage/emulated/0/Download"
# Oldest first: the newest file is the first thumbnail (default order: last modified, descending).
MEDIA = ("holiday.mp4", "mountain.jpg", "sunset.png")
FIRST_IMAGE, SECOND_IMAGE = "sunset.png", "mountain.jpg"
MORE = Tap(desc="More options")
OK = Tap(id="android:id/button1")
SETTINGS = [MORE, Tap(text="Settings")]
OPEN_DOWNLOAD = Tap(text="Download")
# A change nobody asked for, made on the way (the second family of near misses).
LIST_VIEW = [MORE, Tap(text="Change view type"), Tap(id=rid(GALLERY, "change_view_type_dialog_radio_list")), OK]
ONE_SETTING = "one stored setting, read back; any other setting changed fails the task"
STORED = "the stored setting is read, not the screen"
FAVORITE_FIRST = [Tap(id=rid(GALLERY, "media_item_holder")), Tap(id=rid(GALLERY, "bottom_favorite")), Tap(desc="Back")]


@pytest.fixture(autouse=True)
def download_media(device, request):
    """Empties Download, then pushes the files with contents unique to this task and device time
    (a wallpaper left by an earlier task cannot match, while the same task from the same device
    state gets the same files), a minute apart oldest first, so their modified times set the order."""
    now = int(device.sh("date +%s"))
    token = f"{now}:{request.node.nodeid}".encode()
    device.sh(f"rm -rf {DOWNLOAD} && mkdir -p {DOWNLOAD}")  # nothing an earlier episode left
    oldest = now - 3600
    contents = {}
    for i, name in enumerate(MEDIA):
        contents[name] = media_bytes(name, token)
        device.push(contents[name], f"/sdcard/Download/{name}", mtime=oldest + 60 * i)
    expect_files(device, *(f"/sdcard/Download/{name}" for name in MEDIA))
    yield contents
    device.sh("rm -f " + " ".join(f"/sdcard/Download/{name}" for name in MEDIA))


# -- the folders screen's menu ------------------------------------------------------------------


@not_applicable(field=ONE_SETTING, multiset=ONE_SETTING, allowance=NO_ALLOWANCE, lookalike=STORED)
@task(
    prompt="filter media in the gallery and only show images and videos",
    app=GALLERY,
    name="gallery_filter_by_images_and_videos",
    golden=[
        MORE,
        Tap(text="Filter media"),
        Tap(id=rid(GALLERY, "filter_media_gifs")),
        Tap(id=rid(GALLERY, "filter_media_raws")),
        Tap(id=rid(GALLERY, "filter_media_svgs")),
        OK,
    ],
    near_miss={
        "SVGs left in": [
            MORE,
            Tap(text="Filter media"),
            Tap(id=rid(GALLERY, "filter_media_gifs")),
            Tap(id=rid(GALLERY, "filter_media_raws")),
            OK,
        ],
        "filtered and list view": [
            MORE,
            Tap(text="Filter media"),
            Tap(id=rid(GALLERY, "filter_media_gifs")),
            Tap(id=rid(GALLERY, "filter_media_raws")),
            Tap(id=rid(GALLERY, "filter_media_svgs")),
            OK,
            *LIST_VIEW,
        ],
    },
)
def test_gallery_filter_by_images_and_videos(changes):
    # TYPE_IMAGES | TYPE_VIDEOS
    assert changes.value(GALLERY, pref("filter_media")) == 1 | 2, "the filter is not images and videos only"


@not_applicable(
    field=ONE_SETTING,
    multiset=ONE_SETTING,
    allowance="the dialog's own checkbox, stored with it, and nothing else",
    lookalike=STORED,
)
@task(
    prompt="Change the view type to list view",
    app=GALLERY,
    name="gallery_list_view_type",
    golden=[MORE, Tap(text="Change view type"), Tap(id=rid(GALLERY, "change_view_type_dialog_radio_list")), OK],
    near_miss={
        "cancelled": [
            MORE,
            Tap(text="Change view type"),
            Tap(id=rid(GALLERY, "change_view_type_dialog_radio_list")),
            Tap(text="Cancel"),
        ],
        "list view and a favourite": [*LIST_VIEW, OPEN_DOWNLOAD, *FAVORITE_FIRST],
    },
)
def test_gallery_list_view_type(changes):
    changes.allow(GALLERY, pref("group_direct_subfolders"))  # the dialog stores its checkbox too
    assert changes.value(GALLERY, pref("view_type_folders")) == "list"


# The table counts 4 steps, which needs "Sort by" as a toolbar icon. On a phone (360-499 dp wide)
# AppCompat has 3 action slots: the overflow button and the two `always` items (Open camera,
# Show all folders content) take them, so the `ifRoom` "Sort by" is in "More options"
# (docs/fidelity/gallery.md 2.1). Ascending must be picked too (the default is descending): 5.
@not_applicable(field=ONE_SETTING, multiset=ONE_SETTING, allowance=NO_ALLOWANCE, lookalike=STORED)
@task(
    prompt="sort the gallery by size ascendingly",
    app=GALLERY,
    name="gallery_sort_by_size_asc",
    golden=[
        MORE,
        Tap(text="Sort by"),
        Tap(id=rid(GALLERY, "sorting_dialog_radio_size")),
        Tap(id=rid(GALLERY, "sorting_dialog_radio_ascending")),
        OK,
    ],
    golden_steps=5,
    near_miss={
        "descending": [MORE, Tap(text="Sort by"), Tap(id=rid(GALLERY, "sorting_dialog_radio_size")), OK],
        "sorted and list view": [
            MORE,
            Tap(text="Sort by"),
            Tap(id=rid(GALLERY, "sorting_dialog_radio_size")),
            Tap(id=rid(GALLERY, "sorting_dialog_radio_ascending")),
            OK,
            *LIST_VIEW,
        ],
    },
)
def test_gallery_sort_by_size_asc(changes):
    # The folders screen's sorting (the gallery's, not one folder's files).
    sorting = changes.value(GALLERY, pref("directory_sorting")) or {}
    assert (sorting.get("by"), sorting.get("desc")) == ("size", False), f"folders sorted by {sorting}"


# -- settings -----------------------------------------------------------------------------------


def setting_row(name: str, *, scroll: bool = False) -> list:
    """Tap a settings checkbox row. The Videos rows are below the fold on a phone
    (docs/fidelity/gallery.md 2.6), so the table counts a scroll before them."""
    down = [Scroll("down", id=rid(GALLERY, "settings_nested_scrollview"))] if scroll else []
    return [*SETTINGS, *down, Tap(id=rid(GALLERY, f"settings_{name}_holder"))]


VIDEO_SETTINGS = [
    (
        "gallery_play_videos_automatically",
        "Go to Gallery settings and enable play videos automatically",
        "autoplay_videos",
        "loop_videos",
        "autoplay_videos",
    ),
    (
        "gallery_remember_playback_position",
        "Enable remember the last video playback position in settings",
        "remember_last_video_position",
        "autoplay_videos",
        "remember_last_video_position",
    ),
]


@pytest.mark.parametrize("name, prompt, row, near, setting", VIDEO_SETTINGS, ids=[c[0] for c in VIDEO_SETTINGS])
@not_applicable(field=ONE_SETTING, multiset=ONE_SETTING, allowance=NO_ALLOWANCE, lookalike=STORED)
@task(
    prompt="{prompt}",
    app=GALLERY,
    golden=lambda row: setting_row(row, scroll=True),
    near_miss={
        "the neighbouring row": lambda near: setting_row(near, scroll=True),
        "the neighbouring row too": lambda row, near: [
            *setting_row(row, scroll=True),
            Tap(id=rid(GALLERY, f"settings_{near}_holder")),
        ],
    },
)
def test_gallery_video_setting(changes, setting):
    # MobileAgentBench took a click on the row (autoplay: so a second click, turning it off
    # again, passed too) or a checked box on screen; here the setting must be saved as on.
    assert changes.value(GALLERY, pref(setting)) is True


@not_applicable(field=ONE_SETTING, multiset=ONE_SETTING, allowance=NO_ALLOWANCE)
@task(
    prompt="show hidden items in the gallery in settings",
    app=GALLERY,
    name="gallery_show_hidden_items",
    golden=setting_row("show_hidden_items"),
    near_miss={
        labelled("lookalike", "the switch next to it instead"): setting_row("search_all_files"),
        "search all files too": [
            *setting_row("show_hidden_items"),
            Tap(id=rid(GALLERY, "settings_search_all_files_holder")),
        ],
    },
)
def test_gallery_show_hidden_items(changes):
    assert changes.value(GALLERY, pref("show_hidden_media")) is True


@not_applicable(
    field=ONE_SETTING,
    multiset=ONE_SETTING,
    allowance="the date format, which the dialog stores with it, and nothing else",
    lookalike=STORED,
)
@task(
    prompt="Change the date and time format to 24-hour format in gallery settings",
    app=GALLERY,
    name="gallery_use_24_hour_time_format",
    golden=[
        *SETTINGS,
        Tap(text="Change date and time format"),
        Tap(id=rid(GALLERY, "change_date_time_dialog_24_hour")),
        OK,
    ],
    near_miss={
        "cancelled": [
            *SETTINGS,
            Tap(text="Change date and time format"),
            Tap(id=rid(GALLERY, "change_date_time_dialog_24_hour")),
            Tap(text="Cancel"),
        ],
        "and hidden items shown": [
            *SETTINGS,
            Tap(text="Change date and time format"),
            Tap(id=rid(GALLERY, "change_date_time_dialog_24_hour")),
            OK,
            Tap(id=rid(GALLERY, "settings_show_hidden_items_holder")),
        ],
    },
)
def test_gallery_use_24_hour_time_format(changes):
    changes.allow(GALLERY, pref("date_format"))  # the dialog stores the date format with it
    assert changes.value(GALLERY, pref("use_24_hour_format")) is True


# -- the Download folder ------------------------------------------------------------------------


@not_applicable(field="the grouping stored is read whole", multiset=ONE_SETTING, lookalike=STORED)
@task(
    prompt="Go to the downloads folder, group the images by file type",
    app=GALLERY,
    name="gallery_group_by_file_type",
    golden=[OPEN_DOWNLOAD, MORE, Tap(text="Group by"), Tap(id=rid(GALLERY, "grouping_dialog_radio_file_type")), OK],
    near_miss={
        "by extension": [
            OPEN_DOWNLOAD,
            MORE,
            Tap(text="Group by"),
            Tap(id=rid(GALLERY, "grouping_dialog_radio_extension")),
            OK,
        ],
        "grouped and a favourite": [
            OPEN_DOWNLOAD,
            MORE,
            Tap(text="Group by"),
            Tap(id=rid(GALLERY, "grouping_dialog_radio_file_type")),
            OK,
            *FAVORITE_FIRST,
        ],
        labelled("allowance", "all folders by extension, Download alone by file type"): [
            OPEN_DOWNLOAD,
            MORE,
            Tap(text="Group by"),
            Tap(id=rid(GALLERY, "grouping_dialog_radio_extension")),
            OK,
            MORE,
            Tap(text="Group by"),
            Tap(id=rid(GALLERY, "grouping_dialog_radio_file_type")),
            Tap(id=rid(GALLERY, "grouping_dialog_use_for_this_folder")),
            OK,
        ],
    },
)
def test_gallery_group_by_file_type(changes):
    # Download's grouping: its own ("Use for this folder only") or the one all folders share.
    data = {c.key.rsplit(":", 1)[1]: c.after for c in changes.where(GALLERY, key=pref("*grouping"))}
    grouping = (data.get("folder_grouping") or {}).get(DOWNLOAD) or data.get("grouping") or {}
    assert grouping.get("by") == "file_type", f"Download is grouped by {grouping}"
    # the glob admits either grouping (the app writes the folders' own each time): one of them,
    # and no folder's own but Download's
    own = data.get("folder_grouping") or {}
    assert not (DOWNLOAD in own and "grouping" in data), "grouped for all folders and for Download alone"
    others = sorted(set(own) - {DOWNLOAD})
    assert not others, f"other folders grouped too: {others}"


@not_applicable(
    field="the favourites list is the one record the task changes; any other change fails it",
    multiset="the favourites list is compared whole, as a list",
    allowance=NO_ALLOWANCE,
)
@task(
    prompt="Go to Downloads Folder and set the first image as favorite",
    app=GALLERY,
    name="gallery_set_favorite",
    golden=[OPEN_DOWNLOAD, Tap(id=rid(GALLERY, "media_item_holder")), Tap(id=rid(GALLERY, "bottom_favorite"))],
    near_miss={
        labelled("lookalike", "the second image, starred in the same viewer"): [
            OPEN_DOWNLOAD,
            Tap(id=rid(GALLERY, "media_item_holder"), index=1),
            Tap(id=rid(GALLERY, "bottom_favorite")),
        ],
        "a favourite and list view": [*LIST_VIEW, OPEN_DOWNLOAD, *FAVORITE_FIRST],
    },
)
def test_gallery_set_favorite(device, changes):
    # MobileAgentBench took any click on the star (of any image, or unstarring); here the first
    # image, and only it, must be a favourite.
    assert changes.value(GALLERY, "files/favorites.json") == [f"{DOWNLOAD}/{FIRST_IMAGE}"]
    assert app_data(device, GALLERY, "favorites") == [f"{DOWNLOAD}/{FIRST_IMAGE}"]


def set_wallpaper(where: str) -> list:
    return [
        OPEN_DOWNLOAD,
        Tap(id=rid(GALLERY, "media_item_holder")),
        MORE,
        Tap(text="Set as"),
        Tap(text="Simple Wallpaper"),  # Gallery's own target in the system chooser
        Tap(desc="Save"),
        Tap(text=where),
    ]


# The table counts 6 steps; the path has 7 taps: "Set as" opens the system chooser
# (Intent.createChooser), whose "Simple Wallpaper" row opens the crop screen, and its Save asks
# where the wallpaper goes. MobileAgentBench's own check needs the last tap too (the window
# returning to Simple Wallpaper after "Home screen"), so 7 is the golden step count.
@not_applicable(
    field="the home and the lock wallpapers are both read; any other change fails the task",
    multiset="one wallpaper per screen",
    allowance=NO_ALLOWANCE,
    lookalike="the wallpaper's bytes are compared with the first image's",
)
@task(
    prompt="Go to Downloads Folder and set the first image as Home screen wallpaper",
    app=GALLERY,
    name="gallery_set_wallpaper",
    golden=set_wallpaper("Home screen"),
    golden_steps=7,
    difficulty="medium",
    near_miss={
        "the lock screen": set_wallpaper("Lock screen"),
        "and the image a favourite": [
            OPEN_DOWNLOAD,
            *FAVORITE_FIRST,
            *set_wallpaper("Home screen")[1:],
        ],
    },
)
def test_gallery_set_wallpaper(device, download_media):
    # WallpaperManager keeps the wallpapers in /data/system/users/0: the home one must be the
    # first image, and the lock screen's (not asked for) must not have become it too.
    out = device.sh_bytes(
        "cat /data/system/users/0/wallpaper 2>/dev/null; echo; echo __LOCK__; "
        "cat /data/system/users/0/wallpaper_lock 2>/dev/null"
    )
    home, _, lock = out.partition(b"__LOCK__")
    image = download_media[FIRST_IMAGE]
    assert image in home, "the home screen wallpaper is not the first image"
    assert image not in lock, "the lock screen wallpaper was changed too"
