"""Simple Music Player's track screen, cover art and list rows on the virtual device, driven
through uiautomator2 (docs/fidelity/musicplayer.md §2.8): the entry points, every control, the
"Next:" row, seeking, the speed sheet, the position on the device clock, and the pixels of
covers and rows.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from io import BytesIO

import pytest
from PIL import Image

from task_suites.shared.audio import cover_jpeg, mp3

PKG = "com.simplemobiletools.musicplayer"
# Three tagged songs with covers, five seconds each, and an untagged file without one.
SONGS = (
    ("a.mp3", "Alpha", "Ann", "First"),
    ("b.mp3", "Bravo", "Ben", "Second"),
    ("c.mp3", "Charlie", "Cat", "Third"),
)


def rid(name: str) -> str:
    return f"{PKG}:id/{name}"


@pytest.fixture
def songs(u2d, adbd):
    """The songs pushed, a fresh app started on its Tracks tab; the files go afterwards."""
    paths = [f"/sdcard/Music/{name}" for name, *_ in SONGS] + ["/sdcard/Music/plain.mp3"]
    for (_, title, artist, album), path in zip(SONGS, paths, strict=False):
        adbd.sync.push(mp3(title, artist, album, 2000), path)
    adbd.sync.push(b"\x00" * 64, paths[-1])
    adbd.shell(f"pm clear {PKG}")
    u2d.app_start(PKG)
    u2d(text="Tracks").click()
    yield u2d
    adbd.shell(["rm", "-f", *paths])
    adbd.shell(f"pm clear {PKG}")  # its library lists the files no more


def nodes(d) -> dict[str, ET.Element]:
    """The dump's nodes by resource id (one dump, not a round trip per element)."""
    return {n.get("resource-id"): n for n in ET.fromstring(d.dump_hierarchy()).iter("node") if n.get("resource-id")}


def text(d, name: str) -> str | None:
    node = nodes(d).get(rid(name))
    return None if node is None else node.get("text")


def tap(d, name: str) -> None:
    d(resourceId=rid(name)).click()


def bounds(d, name: str) -> tuple[int, int, int, int]:
    b = d(resourceId=rid(name)).info["bounds"]
    return b["left"], b["top"], b["right"], b["bottom"]


def crop(d, box: tuple[int, int, int, int]):
    return d.screenshot(format="pillow").convert("RGB").crop(box)


def no_shuffle(d) -> None:
    """Shuffle is on by default (Config.isShuffleEnabled); off, "Next:" follows the list."""
    tap(d, "activity_track_toggle_shuffle")
    assert nodes(d)[rid("activity_track_toggle_shuffle")].get("content-desc") == "Enable shuffle"


def test_a_tapped_track_opens_the_track_screen_with_its_controls(songs):
    d = songs
    d(text="Alpha").click()
    shown = nodes(d)
    for name in (
        "activity_track_image",
        "activity_track_progressbar",
        "activity_track_speed_click_area",
        "activity_track_previous",
        "activity_track_next",
        "next_track_holder",
    ):
        assert rid(name) in shown, name
    assert shown[rid("activity_track_title")].get("text") == "Alpha"
    assert shown[rid("activity_track_artist")].get("text") == "Ann"
    assert shown[rid("activity_track_progress_current")].get("text") == "00:00"
    assert shown[rid("activity_track_progress_max")].get("text") == "00:05"  # read from the file
    assert shown[rid("activity_track_speed")].get("text") == "1x"
    assert shown[rid("activity_track_toggle_shuffle")].get("content-desc") == "Disable shuffle"
    assert shown[rid("activity_track_playback_setting")].get("content-desc") == "Repeat all"
    assert shown[rid("activity_track_play_pause")].get("content-desc") == "Play / Pause"
    assert "TrackActivity" in d.shell("dumpsys activity top").output


def test_next_previous_shuffle_and_the_next_row(songs):
    d = songs
    d(text="Alpha").click()
    no_shuffle(d)
    assert text(d, "next_track_label") == "Next: Bravo • Ben"
    tap(d, "activity_track_next")
    assert (text(d, "activity_track_title"), text(d, "next_track_label")) == ("Bravo", "Next: Charlie • Cat")
    tap(d, "activity_track_previous")
    assert text(d, "activity_track_title") == "Alpha"
    tap(d, "activity_track_previous")  # past the start it wraps (forceSeekToPrevious)
    assert text(d, "activity_track_title") == "plain"
    assert rid("next_track_holder") not in nodes(d), "the last track with repeat off has no next"


def test_repeat_cycles_through_its_four_settings(songs):
    d = songs
    d(text="Alpha").click()
    no_shuffle(d)
    tap(d, "activity_track_previous")  # the last track: "Next:" shows only when repeating all
    descs = []
    for _ in range(4):
        tap(d, "activity_track_playback_setting")
        shown = nodes(d)
        descs.append(shown[rid("activity_track_playback_setting")].get("content-desc"))
        if len(descs) == 1:
            assert shown[rid("next_track_label")].get("text") == "Next: Alpha • Ann"
        else:
            assert rid("next_track_holder") not in shown
    assert descs == ["Repeat current song", "Stop playback after current song", "Repeat off", "Repeat all"]


def test_seekbar_taps_and_the_time_labels_seek(songs):
    d = songs
    d(text="Alpha").click()
    left, top, right, bottom = bounds(d, "activity_track_progressbar")
    pad = round(16 * d.info["displayWidth"] / d.info["displaySizeDpX"])  # the track's inset, 16 dp
    d.click(left + pad + (right - left - 2 * pad) * 0.6, (top + bottom) // 2)
    assert text(d, "activity_track_progress_current") == "00:03"
    # The thumb (the primary colour's disc) sits 3/5 along the track: drawn, not only reported.
    bar = crop(d, (left, top, right, bottom))
    thumb = [x for x in range(bar.width) if _near(bar.getpixel((x, bar.height // 2)), (245, 124, 0), 10)]
    centre = left + pad + (right - left - 2 * pad) * 0.6
    assert thumb and abs(left + max(thumb) - pad / 2 - centre) <= 4, "the thumb's right edge (8 dp past its centre)"
    tap(d, "activity_track_progress_current")  # 10 s back, not before the start
    assert text(d, "activity_track_progress_current") == "00:00"
    tap(d, "activity_track_progress_max")  # 10 s forward: the end, so the next track plays
    assert text(d, "activity_track_title") != "Alpha"
    assert text(d, "activity_track_progress_current") == "00:00"


def test_the_speed_sheet_changes_the_playback_speed(songs):
    d = songs
    d(text="Alpha").click()
    tap(d, "activity_track_speed_click_area")
    assert text(d, "playback_speed_label") == "1.00x"
    tap(d, "playback_speed_fast")
    tap(d, "playback_speed_fast")
    assert text(d, "playback_speed_label") == "1.10x"
    tap(d, "playback_speed_slow")
    d.press("back")
    assert text(d, "activity_track_speed") == "1.05x"
    assert text(d, "activity_track_title") == "Alpha", "the sheet closed onto the track screen"


def test_the_position_moves_with_the_device_clock_while_playing(songs, adbd):
    d = songs
    d(text="Alpha").click()
    now = int(adbd.shell("date +%s"))
    try:
        adbd.shell(f"date @{now + 2}")
        assert text(d, "activity_track_progress_current") == "00:02"
        tap(d, "activity_track_play_pause")  # paused: the clock no longer moves it
        adbd.shell(f"date @{now + 4}")
        assert text(d, "activity_track_progress_current") == "00:02"
    finally:
        adbd.shell(f"date @{now}")


def test_the_now_playing_bar_and_an_intent_open_the_track_screen(songs, adbd):
    d = songs
    d(text="Bravo").click()
    d.press("back")
    assert text(d, "current_track_label") == "Bravo • Ben"
    tap(d, "current_track_bar")
    assert text(d, "activity_track_title") == "Bravo"
    d.press("back")
    adbd.shell(f"am start -n {PKG}/.activities.TrackActivity")  # the activity itself: the current track
    assert text(d, "activity_track_title") == "Bravo"
    adbd.shell(f"am start -a android.intent.action.VIEW -d file:///sdcard/Music/c.mp3 -t audio/mpeg -p {PKG}")
    shown = nodes(d)
    assert shown[rid("activity_track_title")].get("text") == "Charlie"
    # initThirdPartyIntent: the file alone, without queue controls or a "Next:" row
    for name in ("activity_track_toggle_shuffle", "activity_track_next", "next_track_holder"):
        assert rid(name) not in shown, name
    d.press("back")
    # An explicit intent (-n) carries its data as an implicit one does.
    adbd.shell(
        f"am start -n {PKG}/.activities.TrackActivity -a android.intent.action.VIEW -d file:///sdcard/Music/a.mp3"
    )
    assert text(d, "activity_track_title") == "Alpha"
    assert rid("activity_track_next") not in nodes(d)


def test_covers_are_drawn_from_the_files_and_the_placeholder_without_one(songs):
    """The cover in the list row, the bar and the track screen is the file's own APIC picture;
    the untagged file shows the headset placeholder in the text colour instead."""
    d = songs
    expected = crop(d, bounds(d, "track_image"))  # the first row: Alpha's cover
    art = Image.open(BytesIO(cover_jpeg("First"))).convert("RGB")
    centre = art.getpixel((art.width // 2, art.height // 2))  # the disc's colour
    assert _near(expected.getpixel((expected.width // 2, expected.height // 2)), centre)
    rows = d(resourceId=rid("track_image"))
    plain = rows[3].info["bounds"]
    placeholder = crop(d, (plain["left"], plain["top"], plain["right"], plain["bottom"]))
    colours = {c for _, c in placeholder.getcolors(1 << 16)}
    assert (255, 255, 255) in colours and not any(_near(c, centre) for c in colours)
    d(text="Alpha").click()
    top = crop(d, bounds(d, "activity_track_image"))
    assert _near(top.getpixel((top.width // 2, top.height // 2)), centre)
    d.press("back")
    bar = crop(d, bounds(d, "current_track_image"))
    assert _near(bar.getpixel((bar.width // 2, bar.height // 2)), centre)
    d(text="Albums").click()
    album = crop(d, bounds(d, "album_image"))
    assert _near(album.getpixel((album.width // 2, album.height // 2)), centre)


def _near(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = 40) -> bool:
    """Two colours alike despite JPEG and scaling."""
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=False))


def test_rows_lay_out_cover_texts_and_duration_side_by_side(songs):
    """item_track.xml and item_album.xml: the cover at the start, title over subtitle beside it,
    the duration at the end, all in one row; and the pixels follow the bounds."""
    d = songs
    image, title, info, duration = (
        bounds(d, n) for n in ("track_image", "track_title", "track_info", "track_duration")
    )
    frame = bounds(d, "track_frame")
    assert image[2] <= title[0] and title[2] <= duration[0], "cover, texts and duration are not side by side"
    assert title[3] <= info[1], "the subtitle is not below the title"
    for box in (image, duration):
        assert frame[1] < (box[1] + box[3]) / 2 < frame[3], "not within the row"
    assert duration[2] > (frame[0] + frame[2]) * 0.8, "the duration is not at the row's end"
    shot = crop(d, frame)
    x0 = frame[0]
    ink_right = max(x for x in range(shot.width) if any(sum(shot.getpixel((x, y))) < 450 for y in range(shot.height)))
    assert x0 + ink_right >= duration[0], "nothing drawn at the row's end, where the duration is"
    d(text="Albums").click()
    image, title, tracks = (bounds(d, n) for n in ("album_image", "album_title", "album_tracks"))
    assert image[2] <= title[0] and image[2] <= tracks[0] and title[3] <= tracks[1]
    assert image[1] <= title[1] and tracks[3] <= image[3] + 1, "the texts are not beside the cover"


def test_at_a_track_s_end_the_next_plays_and_the_queue_s_end_stops(songs, adbd):
    """Five-second songs, shuffle and repeat off: six seconds on, the second song is a second
    in, and the player goes on to the last file; with "Stop playback after current song" it
    stops at the end of the song."""
    d = songs
    d(text="Alpha").click()
    no_shuffle(d)
    now = int(adbd.shell("date +%s"))
    try:
        adbd.shell(f"date @{now + 6}")
        assert (text(d, "activity_track_title"), text(d, "activity_track_progress_current")) == ("Bravo", "00:01")
        adbd.shell(f"date @{now + 60}")
        assert (text(d, "activity_track_title"), text(d, "activity_track_progress_current")) == ("plain", "00:00")
        tap(d, "activity_track_previous")  # Charlie: at its end the queue's end stops the player
        tap(d, "activity_track_previous")
        tap(d, "activity_track_next")
        assert text(d, "activity_track_title") == "Charlie"
        tap(d, "activity_track_playback_setting")
        tap(d, "activity_track_playback_setting")
        tap(d, "activity_track_playback_setting")  # Stop playback after current song
        adbd.shell(f"date @{now + 70}")
        assert (text(d, "activity_track_title"), text(d, "activity_track_progress_current")) == ("Charlie", "00:05")
        adbd.shell(f"date @{now + 80}")
        assert text(d, "activity_track_progress_current") == "00:05", "stopped: the clock no longer moves it"
    finally:
        adbd.shell(f"date @{now}")


def test_the_next_row_opens_the_queue_which_plays_a_tapped_track_and_saves_a_playlist(songs, adbd):
    d = songs
    d(text="Alpha").click()
    no_shuffle(d)
    tap(d, "next_track_holder")
    titles = [
        n.get("text")
        for n in ET.fromstring(d.dump_hierarchy()).iter("node")
        if n.get("resource-id") == rid("track_queue_title")
    ]
    assert titles == ["Alpha", "Bravo", "Charlie", "plain"]  # the queue in playing order
    assert "QueueActivity" in adbd.shell("dumpsys activity top")
    d(resourceId=rid("track_queue_title"), text="Charlie").click()
    d(description="More options").click()
    d(text="Create playlist from queue").click()
    adbd.shell(["input", "text", "Queued"])
    d(text="OK").click()
    d.press("back")
    assert text(d, "activity_track_title") == "Charlie"
    d.press("back")
    d(text="Playlists").click()
    assert d(resourceId=rid("playlist_title"), text="Queued").exists
    assert (
        d(resourceId=rid("playlist_title"), text="Queued").sibling(resourceId=rid("playlist_tracks")).get_text()
        == "4 Tracks"
    )
