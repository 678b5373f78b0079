"""Voice Recorder, Gallery and Music Player sets: the files on shared storage are pushed fresh
for each task (recordings, media in Download, tagged mp3s), and read back with the apps' saved
settings, favourites and library."""

from __future__ import annotations

from pytest_mobile_agent import LongPress, Scroll, Tap, Type
from task_suites.shared.apps import GALLERY, MUSIC_PLAYER, VOICE_RECORDER, rid
from task_suites.shared.media import media_bytes
from task_suites.shared.near_misses import NO_ALLOWANCE, labelled
from task_suites.shared.reading import pref
from task_suites.shared.seeds import MUSIC_DIR, expect_files, push_files, push_tracks
from task_suites.spabench.levels import Final, Part, SpaSet

ONE_SETTING = "one stored setting a level, read back; any other setting changed fails the task"
STORED = "the stored settings are read, not the screen"

# -- Voice Recorder -----------------------------------------------------------------------------

RECORDINGS_DIR = "/sdcard/Music/Recordings"
REC = "Music/Recordings"  # as durable-state keys name it
M4A = b"\x00\x00\x00\x18ftypM4A \x00\x00\x00\x00M4A isom" + bytes(2000)
OLDER, NEWER = "2024_05_15_08_30_00.m4a", "2024_05_15_08_45_10.m4a"
RECORDER_SETTINGS = Tap(id=rid(VOICE_RECORDER, "settings"))
PLAYER = Tap(text="Player")


def two_recordings(device) -> None:
    """Two recordings (the newest listed first), with contents of their own."""
    device.sh(f"rm -rf {RECORDINGS_DIR}; mkdir -p {RECORDINGS_DIR}")
    push_files(device, [(f"{RECORDINGS_DIR}/{name}", M4A + name.encode()) for name in (OLDER, NEWER)])


def no_recordings(device) -> None:
    device.sh(f"rm -rf {RECORDINGS_DIR}; mkdir -p {RECORDINGS_DIR}")


def row_menu(item: str, row: int = 0) -> list:
    """A row's three-dot menu (it has no description) and one of its items."""
    return [Tap(id=rid(VOICE_RECORDER, "overflow_menu_icon"), index=row), Tap(text=item)]


def rename(name: str, row: int = 0) -> list:
    return [
        *row_menu("Rename", row),
        LongPress(id=rid(VOICE_RECORDER, "rename_recording_title")),
        Type(name),
        Tap(text="OK"),
    ]


def delete(row: int) -> list:
    """Delete, Yes on the app's question, then the media provider's prompt."""
    return [*row_menu("Delete", row), Tap(text="Yes"), Tap(text="Allow")]


def player_shown(f: Final) -> None:
    names = [n.text for n in f.ui.find_all(id=rid(VOICE_RECORDER, "recording_title"))]
    assert names, "the Player's recordings are not shown"


def renamed(f: Final) -> None:
    f.changes.moved("files", f"{REC}/{NEWER}", f"{REC}/interview.m4a")


def older_deleted(f: Final) -> None:
    """Gone from the Player: deleted, or in the Recycle Bin (.trashed-<expiry>-<name>) whole."""
    gone = f.changes.removed("files", f"{REC}/{OLDER}")
    for trashed in f.changes.where("files", "added", f"{REC}/.trashed-*-{OLDER}"):
        assert trashed.after == gone, f"{OLDER} in the Recycle Bin with other content"


def recorder_pref(name: str, value: object, what: str):
    def check(f: Final) -> None:
        got = f.changes.value(VOICE_RECORDER, pref(name))
        assert got == value, f"{what}: {got!r}"

    return check


RECORDER_SETS = [
    SpaSet(
        name="voicerecorder_0",
        not_applicable=dict(
            field="the recordings folder is listed whole, names and all",
            multiset="the recordings folder is listed whole, in order",
            allowance=NO_ALLOWANCE,
            lookalike="the recordings are read on the device, not the list",
        ),
        app=VOICE_RECORDER,
        setup=two_recordings,
        parts=(
            Part(
                "Open the Player.",
                "打开播放器页面。",
                [PLAYER],
                shown=player_shown,
                keys=[NEWER],
                wrong=(labelled("lookalike", "the Recycle Bin instead"), [Tap(text="Recycle Bin")]),
            ),
            Part(
                "Rename the newest recording to 'interview'.",
                "将最新的录音重命名为“interview”。",
                rename("interview", 0),
                check=renamed,
                keys=["interview.m4a"],
                wrong=("the older one renamed", rename("interview", 1)),
            ),
            Part(
                "Then delete the other recording.",
                "然后删除另一条录音。",
                delete(1),
                check=older_deleted,
                keys=["interview.m4a"],
                wrong=("interview deleted instead", delete(0)),
            ),
        ),
        extra=(
            "and the bitrate changed",
            [RECORDER_SETTINGS, Tap(id=rid(VOICE_RECORDER, "settings_bitrate_holder")), Tap(text="32 kbps")],
        ),
    ),
    SpaSet(
        name="voicerecorder_1",
        not_applicable=dict(
            field=ONE_SETTING,
            multiset=ONE_SETTING,
            allowance=NO_ALLOWANCE,
            lookalike=STORED,
        ),
        app=VOICE_RECORDER,
        setup=no_recordings,
        parts=(
            Part(
                "Change the bitrate to 32 kbps.",
                "将比特率改为32 kbps。",
                [RECORDER_SETTINGS, Tap(id=rid(VOICE_RECORDER, "settings_bitrate_holder")), Tap(text="32 kbps")],
                check=recorder_pref("bitrate", 32, "bitrate"),
                keys=["32 kbps"],
                wrong=(
                    "64 kbps",
                    [RECORDER_SETTINGS, Tap(id=rid(VOICE_RECORDER, "settings_bitrate_holder")), Tap(text="64 kbps")],
                ),
            ),
            Part(
                "Save new recordings as mp3.",
                "新录音保存为mp3格式。",
                [Tap(id=rid(VOICE_RECORDER, "settings_extension_holder")), Tap(text="mp3")],
                check=recorder_pref("extension", 1, "extension (0 m4a, 1 mp3, 2 ogg)"),
                keys=["mp3"],
                wrong=("ogg", [Tap(id=rid(VOICE_RECORDER, "settings_extension_holder")), Tap(text="ogg (Opus)")]),
            ),
            Part(
                "Then stop moving deleted recordings into the Recycle Bin.",
                "然后关闭“删除的录音移入回收站”。",
                [
                    Scroll("down", id=rid(VOICE_RECORDER, "settings_nested_scrollview")),
                    Tap(id=rid(VOICE_RECORDER, "settings_use_recycle_bin_holder")),
                ],
                check=recorder_pref("use_recycle_bin", False, "use the Recycle Bin"),
                keys=["mp3"],
                wrong=(
                    "the notification hidden instead",
                    [
                        Scroll("down", id=rid(VOICE_RECORDER, "settings_nested_scrollview")),
                        Tap(id=rid(VOICE_RECORDER, "settings_hide_notification_holder")),
                    ],
                ),
            ),
        ),
        extra=(
            "and recording at launch switched on",
            [Tap(id=rid(VOICE_RECORDER, "settings_record_after_launch_holder"))],
        ),
    ),
]

# -- Gallery ------------------------------------------------------------------------------------

DOWNLOAD = "/storage/emulated/0/Download"
MEDIA = ("holiday.mp4", "mountain.jpg", "sunset.png")  # oldest first: sunset.png is listed first
GALLERY_MORE = Tap(desc="More options")
GALLERY_OK = Tap(id="android:id/button1")
OPEN_DOWNLOAD = Tap(text="Download")
FIRST_MEDIA = Tap(id=rid(GALLERY, "media_item_holder"))
FAVORITE = Tap(id=rid(GALLERY, "bottom_favorite"))
GALLERY_SETTINGS = [GALLERY_MORE, Tap(text="Settings")]
SETTINGS_SCROLL = Scroll("down", id=rid(GALLERY, "settings_nested_scrollview"))


def gallery_row(name: str) -> object:
    return Tap(id=rid(GALLERY, f"settings_{name}_holder"))


def download_media(device) -> None:
    """Download holds three media files a minute apart (their modified times set the order)."""
    now = int(device.sh("date +%s"))
    device.sh(f"rm -rf {DOWNLOAD} && mkdir -p {DOWNLOAD}")
    for i, name in enumerate(MEDIA):
        device.push(media_bytes(name), f"{DOWNLOAD}/{name}", mtime=now - 3600 + 60 * i)
    expect_files(device, *(f"{DOWNLOAD}/{name}" for name in MEDIA))


def folder_shown(f: Final) -> None:
    assert len(f.ui.find_all(id=rid(GALLERY, "media_item_holder"))) == 3, "the Download folder's media are not shown"


def sunset_favorite(f: Final) -> None:
    favorites = f.changes.value(GALLERY, "files/favorites.json")
    assert favorites == [f"{DOWNLOAD}/sunset.png"], f"favorites: {favorites}"


def grouped_by_type(f: Final) -> None:
    data = {c.key.rsplit(":", 1)[1]: c.after for c in f.changes.where(GALLERY, key=pref("*grouping"))}
    grouping = (data.get("folder_grouping") or {}).get(DOWNLOAD) or data.get("grouping") or {}
    assert grouping.get("by") == "file_type", f"Download is grouped by {grouping}"
    # the glob admits either grouping (the app writes the folders' own each time): one of them,
    # and no folder's own but Download's
    own = data.get("folder_grouping") or {}
    assert not (DOWNLOAD in own and "grouping" in data), "grouped for all folders and for Download alone"
    assert set(own) <= {DOWNLOAD}, f"other folders grouped too: {sorted(set(own) - {DOWNLOAD})}"


def gallery_setting(name: str):
    def check(f: Final) -> None:
        assert f.changes.value(GALLERY, pref(name)) is True, f"{name} is not on"

    return check


GALLERY_SETS = [
    SpaSet(
        name="gallery_0",
        not_applicable=dict(
            field="the favourites list and the grouping are read whole",
            multiset="the favourites list is compared as a list",
            allowance="no allowance below level 3",
            lookalike="the favourite and the grouping are read from the app's data",
        ),
        app=GALLERY,
        setup=download_media,
        parts=(
            Part(
                "Open the Download folder.",
                "打开Download文件夹。",
                [OPEN_DOWNLOAD],
                shown=folder_shown,
                wrong=(
                    labelled("lookalike", "every folder's content: the same files"),
                    [Tap(id=rid(GALLERY, "show_all"))],
                ),
            ),
            Part(
                "Mark its first image as a favorite.",
                "将其中第一张图片设为收藏。",
                [FIRST_MEDIA, FAVORITE],
                check=sunset_favorite,
                keys=["sunset.png"],
                wrong=("the second image", [Tap(id=rid(GALLERY, "media_item_holder"), index=1), FAVORITE]),
            ),
            Part(
                "Then go back and group the folder by file type.",
                "然后返回，将该文件夹按文件类型分组。",
                [
                    Tap(desc="Back"),
                    GALLERY_MORE,
                    Tap(text="Group by"),
                    Tap(id=rid(GALLERY, "grouping_dialog_radio_file_type")),
                    GALLERY_OK,
                ],
                check=grouped_by_type,
                keys=["Images", "Videos"],
                wrong=(
                    "by extension",
                    [
                        Tap(desc="Back"),
                        GALLERY_MORE,
                        Tap(text="Group by"),
                        Tap(id=rid(GALLERY, "grouping_dialog_radio_extension")),
                        GALLERY_OK,
                    ],
                ),
                misses=(
                    (
                        labelled("allowance", "all folders by extension, Download alone by file type"),
                        [
                            Tap(desc="Back"),
                            GALLERY_MORE,
                            Tap(text="Group by"),
                            Tap(id=rid(GALLERY, "grouping_dialog_radio_extension")),
                            GALLERY_OK,
                            GALLERY_MORE,
                            Tap(text="Group by"),
                            Tap(id=rid(GALLERY, "grouping_dialog_radio_file_type")),
                            Tap(id=rid(GALLERY, "grouping_dialog_use_for_this_folder")),
                            GALLERY_OK,
                        ],
                    ),
                ),
            ),
        ),
        extra=(
            "and the file names shown",
            lambda level: [*([Tap(desc="Back")] if level == 2 else []), Tap(id=rid(GALLERY, "toggle_filename"))],
        ),
    ),
    SpaSet(
        name="gallery_1",
        not_applicable=dict(
            field=ONE_SETTING,
            multiset=ONE_SETTING,
            allowance=NO_ALLOWANCE,
            lookalike=STORED,
        ),
        app=GALLERY,
        setup=download_media,
        parts=(
            Part(
                "In the settings, show hidden items.",
                "在设置中开启显示隐藏项目。",
                [*GALLERY_SETTINGS, gallery_row("show_hidden_items")],
                check=gallery_setting("show_hidden_media"),
                keys=["Show hidden items"],
                wrong=(
                    labelled("lookalike", "the switch next to it instead"),
                    [*GALLERY_SETTINGS, gallery_row("search_all_files")],
                ),
            ),
            Part(
                "Enable playing videos automatically.",
                "开启自动播放视频。",
                [SETTINGS_SCROLL, gallery_row("autoplay_videos")],
                check=gallery_setting("autoplay_videos"),
                keys=["Play videos automatically"],
                wrong=("loop videos instead", [SETTINGS_SCROLL, gallery_row("loop_videos")]),
            ),
            Part(
                "Also remember the last video playback position.",
                "同时开启记住上次视频播放位置。",
                [gallery_row("remember_last_video_position")],
                check=gallery_setting("remember_last_video_position"),
                keys=["Remember last video playback position"],
                wrong=("autoplay switched back off", [gallery_row("autoplay_videos")]),
            ),
        ),
        extra=(
            "and videos looped",
            lambda level: [*([SETTINGS_SCROLL] if level == 1 else []), gallery_row("loop_videos")],
        ),
    ),
]

# -- Music Player -------------------------------------------------------------------------------

LIBRARY = "files/library.json"
MUSIC_MORE = Tap(desc="More options")
SORT = Tap(id=rid(MUSIC_PLAYER, "sort"))
MUSIC_OK = Tap(id="android:id/button1")
MUSIC_SEARCH = rid(MUSIC_PLAYER, "top_toolbar_search")
EQUALIZER = [Tap(id=rid(MUSIC_PLAYER, "equalizer")), Tap(id=rid(MUSIC_PLAYER, "equalizer_preset"))]
ALBUMS = (
    ("abbey_road.mp3", "Come Together", "The Beatles", "Abbey Road", 1969),
    ("blue_train.mp3", "Moment's Notice", "John Coltrane", "Blue Train", 1957),
    ("currents.mp3", "Let It Happen", "Tame Impala", "Currents", 2015),
)


def albums(device) -> None:
    """Three albums of different years, pushed before the app's first scan."""
    device.sh(f"rm -f {MUSIC_DIR}/*.mp3")
    push_tracks(device, ALBUMS)


def create_playlist(name: str) -> list:
    return [MUSIC_MORE, Tap(text="Create new playlist"), Type(name), MUSIC_OK]


def playlist_named(name: str):
    def check(f: Final) -> None:
        title = f.changes.added(MUSIC_PLAYER, f"{LIBRARY}:playlists*")["title"]
        assert title == name, f"the new playlist: {title!r}"

    return check


def sorting(tab: str, by: str, descending: bool):
    def check(f: Final) -> None:
        got = f.changes.value(MUSIC_PLAYER, pref(f"{tab}_sorting"))
        assert got is not None and tuple(got) == (by, descending), f"{tab} sorted by {got}"

    return check


def playlist_found(query: str, name: str):
    def shown(f: Final) -> None:
        assert f.ui.text_of(MUSIC_SEARCH) == query, f"the search field holds {f.ui.text_of(MUSIC_SEARCH)!r}"
        titles = [n.text for n in f.ui.find_all(id=rid(MUSIC_PLAYER, "playlist_title"))]
        assert titles == [name], f"playlists found: {titles}"

    return shown


def albums_shown(f: Final) -> None:
    titles = [n.text for n in f.ui.find_all(id=rid(MUSIC_PLAYER, "album_title"))]
    assert sorted(titles) == ["Abbey Road", "Blue Train", "Currents"], f"albums shown: {titles}"


def heavy_metal(f: Final) -> None:
    assert f.changes.value(MUSIC_PLAYER, pref("equalizer_preset")) == 5, "the equalizer preset is not Heavy Metal"


# The playlist, a typo of it, the search query and another word, as each language's task types them.
ROAD_TRIP = {"ENG": ("Road trip", "Raod trip", "Road", "Rock"), "CHN": ("自驾游", "自架游", "自驾", "摇滚")}


def musicplayer_0(lang: str) -> SpaSet:
    name, typo, query, other = ROAD_TRIP[lang]
    return SpaSet(
        name="musicplayer_0",
        not_applicable=dict(
            field="the playlist is read back from the library; the sorting stored is read whole",
            multiset="Music Player refuses a second playlist of the same name",
            allowance=NO_ALLOWANCE,
            lookalike="the stored sorting and the search results are read",
        ),
        app=MUSIC_PLAYER,
        setup=albums,
        parts=(
            Part(
                f"Create a playlist named '{name}'.",
                f"新建一个名为“{name}”的播放列表。",
                create_playlist(name),
                check=playlist_named(name),
                keys=[name],
                wrong=("a typo", create_playlist(typo)),
            ),
            Part(
                "Sort the playlists in descending order.",
                "将播放列表按降序排列。",
                [SORT, Tap(id=rid(MUSIC_PLAYER, "sorting_dialog_radio_descending")), MUSIC_OK],
                check=sorting("playlists", "title", True),
                keys=[name],
                wrong=("left ascending", [SORT, Tap(id=rid(MUSIC_PLAYER, "sorting_dialog_radio_ascending")), MUSIC_OK]),
            ),
            Part(
                f"Then search for '{query}'.",
                f"然后搜索“{query}”。",
                [Tap(id=MUSIC_SEARCH), Type(query)],
                shown=playlist_found(query, name),
                keys=[name],
                wrong=("searched for another word", [Tap(id=MUSIC_SEARCH), Type(other)]),
            ),
        ),
        extra=(
            "and the equalizer set",
            lambda level: [*([Tap(desc="Back")] if level == 3 else []), *EQUALIZER, Tap(text="Heavy Metal")],
        ),
    )


MUSIC_SETS = [
    musicplayer_0,
    SpaSet(
        name="musicplayer_1",
        not_applicable=dict(
            field=ONE_SETTING,
            multiset=ONE_SETTING,
            allowance=NO_ALLOWANCE,
            lookalike=STORED,
        ),
        app=MUSIC_PLAYER,
        setup=albums,
        parts=(
            Part(
                "Open the Albums tab.",
                "打开专辑标签页。",
                [Tap(text="Albums")],
                shown=albums_shown,
                keys=["Blue Train"],
                wrong=(labelled("lookalike", "the Artists tab"), [Tap(text="Artists")]),
            ),
            Part(
                "Sort the albums by year.",
                "将专辑按年份排序。",
                [SORT, Tap(text="Year"), MUSIC_OK],
                check=sorting("albums", "year", False),
                shown=albums_shown,
                keys=["Blue Train"],
                wrong=("by artist", [SORT, Tap(text="Artist Name"), MUSIC_OK]),
            ),
            Part(
                "Then set the equalizer to Heavy Metal.",
                "然后将均衡器设为Heavy Metal。",
                [*EQUALIZER, Tap(text="Heavy Metal")],
                check=heavy_metal,
                keys=["Heavy Metal"],
                wrong=("Hip Hop", [*EQUALIZER, Tap(text="Hip Hop")]),
            ),
        ),
        extra=(
            "and a playlist created",
            lambda level: [*([Tap(desc="Back")] if level == 3 else []), Tap(text="Playlists"), *create_playlist("x")],
        ),
    ),
]
