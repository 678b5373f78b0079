"""Simple Music Player on the virtual device, driven through uiautomator2 like the benchmark.

Each MobileAgentBench music task is replayed by its expert flow (docs/fidelity/musicplayer.md §4)
and checked on the hierarchy and on the app's state after a restart.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from fidelity_docs import fidelity_doc, literal_ids, package_source, screen_ids

PKG = "com.simplemobiletools.musicplayer"


def rid(name: str) -> str:
    return f"{PKG}:id/{name}"


def id3(title: str, artist: str, album: str, year: str, version: int = 3) -> bytes:
    """An ID3v2.3/2.4 tag with text frames, then a few 128 kbps MPEG-1 layer III frames."""
    frames = b""
    for fid, value in (("TIT2", title), ("TPE1", artist), ("TALB", album), ("TYER" if version == 3 else "TDRC", year)):
        payload = b"\x03" + value.encode()
        n = len(payload)
        size = n.to_bytes(4, "big") if version == 3 else bytes((n >> 21 & 127, n >> 14 & 127, n >> 7 & 127, n & 127))
        frames += fid.encode() + size + b"\x00\x00" + payload
    n = len(frames)
    header = b"ID3" + bytes((version, 0, 0, n >> 21 & 127, n >> 14 & 127, n >> 7 & 127, n & 127))
    return header + frames + (b"\xff\xfb\x90\x64" + bytes(413)) * 20


@pytest.fixture
def media(adbd):
    """Pushed audio under /sdcard/Music, removed afterwards."""
    pushed: list[str] = []

    def push(name: str, data: bytes) -> None:
        path = f"/sdcard/Music/{name}"
        adbd.sync.push(data, path)
        pushed.append(path)

    yield push
    if pushed:
        adbd.shell(["rm", "-f", *pushed])


@pytest.fixture
def player(u2d, adbd):
    adbd.shell(f"pm clear {PKG}")
    u2d.app_start(PKG)
    return u2d


def nodes(d) -> list[ET.Element]:
    """One dump instead of a round trip per element."""
    return list(ET.fromstring(d.dump_hierarchy()).iter("node"))


def texts(d, name: str) -> list[str]:
    return [n.get("text") for n in nodes(d) if n.get("resource-id") == rid(name)]


def radios(d) -> list[ET.Element]:
    return [n for n in nodes(d) if n.get("class") == "android.widget.RadioButton"]


def overflow(d, title: str) -> None:
    d(description="More options").click()
    d(resourceId=rid("title"), text=title).click()


def create_playlist(d, adbd, title: str) -> None:
    overflow(d, "Create new playlist")
    assert d(resourceId=rid("alertTitle")).get_text() == "Create new playlist"
    assert d(resourceId=rid("new_playlist_title")).info["focused"]
    adbd.shell(["input", "text", title])
    d(text="OK").click()


def top_activity(adbd) -> str:
    return adbd.shell("dumpsys activity top")


def test_fresh_install_playlists_tab_menus_and_tabs(player):
    d = player
    for name in ("main_coordinator", "main_menu", "top_toolbar_search", "view_pager", "main_tabs_holder"):
        assert d(resourceId=rid(name)).exists, name
    assert d(resourceId=rid("top_toolbar_search_icon")).info["contentDescription"] == "Search"
    assert d(description="Sort by").info["resourceName"] == rid("sort")
    assert d(description="Equalizer").info["resourceName"] == rid("equalizer")
    assert texts(d, "tab_item_label") == ["Playlists", "Folders", "Artists", "Albums", "Tracks"]
    assert texts(d, "playlist_title") == ["All tracks"]
    assert texts(d, "playlist_tracks") == ["0 Tracks"]
    d(description="More options").click()
    assert texts(d, "title") == [
        "Create new playlist",
        "Create new playlist from folder",
        "Import playlist",
        "Rescan media",
        "Sleep timer",
        "Settings",
        "About",
    ]
    d.press("back")
    d(text="Albums").click()
    assert d(resourceId=rid("albums_placeholder")).get_text() == "No items found."
    d(description="More options").click()
    assert texts(d, "title") == ["Rescan media", "Sleep timer", "Settings", "About"]


def test_create_playlist_persists_and_pm_clear_resets(player, adbd):
    d = player
    d(text="Albums").click()  # the benchmark's setup leaves the app on Albums
    d(resourceId=rid("tab_item_label"), text="Playlists").click()
    create_playlist(d, adbd, "test")
    assert not d(resourceId=rid("new_playlist_title")).exists
    assert texts(d, "playlist_title") == ["All tracks", "test"]
    assert texts(d, "playlist_tracks") == ["0 Tracks", "0 Tracks"]
    # A taken name (any case) or an empty one keeps the dialog open.
    create_playlist(d, adbd, "TEST")
    assert d(resourceId=rid("new_playlist_title")).get_text() == "TEST"
    assert d.toast.get_message(0, default="") == "A playlist with that name already exists"
    d(text="Cancel").click()
    adbd.shell(f"am force-stop {PKG}")
    d.app_start(PKG)
    assert texts(d, "playlist_title") == ["All tracks", "test"]
    adbd.shell(f"pm clear {PKG}")
    d.app_start(PKG)
    assert texts(d, "playlist_title") == ["All tracks"]


def test_create_playlist_and_search_then_back_closes_search(player, adbd):
    d = player
    d(text="Albums").click()
    d(text="Playlists").click()
    create_playlist(d, adbd, "test")
    d(resourceId=rid("top_toolbar_search")).click()
    adbd.shell(["input", "text", "test"])
    assert d(resourceId=rid("top_toolbar_search")).get_text().lower() == "test"
    assert texts(d, "playlist_title") == ["test"]
    assert d(resourceId=rid("top_toolbar_search_icon")).info["contentDescription"] == "Back"
    d(resourceId=rid("top_toolbar_search")).set_text("zzz")
    assert d(resourceId=rid("playlists_placeholder")).get_text() == "No items found."
    d.press("back")  # hides the keyboard
    d.press("back")  # closes the search
    assert d(resourceId=rid("top_toolbar_search")).get_text() in ("", None)
    assert texts(d, "playlist_title") == ["All tracks", "test"]


def test_search_playlist_seeded_through_the_ui(player, adbd):
    d = player
    d(text="Albums").click()
    d(text="Playlists").click()
    create_playlist(d, adbd, "Test")
    d(resourceId=rid("top_toolbar_search")).click()
    adbd.shell(["input", "text", "Test"])
    assert d(resourceId=rid("top_toolbar_search")).get_text().lower() == "test"
    assert texts(d, "playlist_title") == ["Test"]


def sort(d, option: str) -> None:
    d(resourceId=rid("sort")).click()
    assert d(resourceId=rid("alertTitle")).get_text() == "Sort by"
    d(text=option).click()
    d(text="OK").click()


def test_playlist_sort_descending_applies_on_ok_and_persists(player, adbd):
    d = player
    create_playlist(d, adbd, "test")
    d(resourceId=rid("sort")).click()
    options = radios(d)
    assert [r.get("text") for r in options] == ["Title", "Track Count", "Ascending", "Descending"]
    assert [r.get("resource-id") for r in options[:2]] == ["", ""]  # runtime ids: none in a dump
    assert d(resourceId=rid("sorting_dialog_radio_ascending")).info["checked"]
    d(text="Descending").click()
    d(text="Cancel").click()
    assert texts(d, "playlist_title") == ["All tracks", "test"]
    sort(d, "Descending")
    assert texts(d, "playlist_title") == ["test", "All tracks"]
    adbd.shell(f"am force-stop {PKG}")
    d.app_start(PKG)
    assert texts(d, "playlist_title") == ["test", "All tracks"]
    d(resourceId=rid("sort")).click()
    assert d(resourceId=rid("sorting_dialog_radio_descending")).info["checked"]


def test_album_sort_by_year_with_tagged_files(player, adbd, media):
    d = player
    media("a.mp3", id3("Song A", "Band", "Zeta", "1999"))
    media("b.mp3", id3("Song B", "Band", "Alpha", "2012", version=4))
    media("c.mp3", id3("Song C", "Other", "Mid", "2005"))
    overflow(d, "Rescan media")
    d(text="Albums").click()
    assert texts(d, "album_title") == ["Alpha", "Mid", "Zeta"]
    d(resourceId=rid("sort")).click()
    options = [r.get("text") for r in radios(d)]
    assert options == ["Title", "Artist Name", "Year", "Date added", "Ascending", "Descending"]
    d(text="Year").click()
    d(text="OK").click()
    assert texts(d, "album_title") == ["Zeta", "Mid", "Alpha"]
    assert texts(d, "album_tracks") == ["1 Track"] * 3
    adbd.shell(f"am force-stop {PKG}")
    d.app_start(PKG)  # the last used tab comes back too
    assert texts(d, "album_title") == ["Zeta", "Mid", "Alpha"]


def test_tracks_artists_and_folders_from_id3_tags(player, media):
    d = player
    media("tagged.mp3", id3("Blue Sky", "The Band", "Weather", "2001"))
    media("plain.mp3", b"not really audio")
    overflow(d, "Rescan media")
    d(text="Tracks").click()
    assert texts(d, "track_title") == ["Blue Sky", "plain"]
    assert texts(d, "track_info") == ["The Band • Weather", "<unknown> • Music"]
    d(text="Artists").click()
    assert texts(d, "artist_title") == ["<unknown>", "The Band"]
    assert texts(d, "artist_albums_tracks") == ["1 Album, 1 Track", "1 Album, 1 Track"]
    d(text="Folders").click()
    assert texts(d, "folder_title") == ["Music"]
    d(resourceId=rid("folder_frame")).click()
    assert d(resourceId=rid("tracks_toolbar")).child(text="Music").exists
    assert texts(d, "track_title") == ["Blue Sky", "plain"]
    d(text="Blue Sky").click()  # prepareAndPlay opens the track screen
    assert d(resourceId=rid("activity_track_title")).get_text() == "Blue Sky"
    d.press("back")
    assert d(resourceId=rid("current_track_label")).get_text() == "Blue Sky • The Band"


def test_rescan_media_finds_files_pushed_while_running(player, media):
    d = player
    d(text="Folders").click()
    assert d(resourceId=rid("folders_placeholder")).exists
    d(description="More options").click()  # the checker pushes the files on this click
    media("music1.mp3", id3("One", "A", "B", "2020"))
    media("music2.mp3", b"\x00" * 64)
    d(resourceId=rid("title"), text="Rescan media").click()
    assert texts(d, "folder_title") == ["Music"]
    assert d(resourceId=rid("folder_tracks")).get_text() == "2 Tracks"
    d(text="Playlists").click()
    assert texts(d, "playlist_tracks") == ["2 Tracks"]


def test_config_equalizer_heavy_metal(player, adbd):
    d = player
    d(resourceId=rid("equalizer")).click()
    assert d(resourceId=rid("equalizer_toolbar")).child(text="Equalizer").exists
    assert texts(d, "equalizer_band_label") == ["60 Hz", "230 Hz", "910 Hz", "3.6 kHz", "14 kHz"]
    assert d(resourceId=rid("equalizer_preset")).get_text() == "Normal"
    d(resourceId=rid("equalizer_preset")).click()
    presets = [r.get("text") for r in radios(d)]
    assert presets[:3] == ["Normal", "Classical", "Dance"] and presets[-1] == "Custom" and "Heavy Metal" in presets
    d(text="Heavy Metal").click()
    assert d(resourceId=rid("equalizer_preset")).get_text() == "Heavy Metal"
    d(resourceId=rid("equalizer_band_seek_bar")).click()
    assert d(resourceId=rid("equalizer_preset")).get_text() == "Custom"
    d.press("back")
    adbd.shell(f"am force-stop {PKG}")
    d.app_start(PKG)
    d(resourceId=rid("equalizer")).click()
    assert d(resourceId=rid("equalizer_preset")).get_text() == "Custom"


def test_open_settings_and_faq(player, adbd):
    d = player
    overflow(d, "Settings")
    assert "SettingsActivity" in top_activity(adbd)
    assert d(resourceId=rid("settings_color_customization_label")).get_text() == "Customize colors"
    assert d(resourceId=rid("settings_show_filename")).get_text() == "If title is not available"
    box = d(resourceId=rid("settings_gapless_playback"))
    assert not box.info["checked"]
    d(resourceId=rid("settings_gapless_playback_holder")).click()
    assert box.info["checked"]
    d(resourceId=rid("settings_manage_shown_tabs_holder")).click()
    assert d(resourceId=rid("manage_visible_tabs_genres")).exists
    d(text="Cancel").click()
    d.press("back")
    overflow(d, "About")
    d(text="Frequently asked questions").click()
    assert "FAQActivity" in top_activity(adbd)
    assert d(text="How can I fast-forward songs?").exists


def test_rename_and_remove_playlist_in_selection_mode(player, adbd):
    d = player
    create_playlist(d, adbd, "road")
    d(text="road").long_click()
    assert d(resourceId=rid("actionbar_title")).get_text() == "1 / 2"
    for name, desc in (("cab_rename", "Rename"), ("cab_delete", "Delete"), ("cab_select_all", "Select all")):
        assert d(resourceId=rid(name)).info["contentDescription"] == desc
    d(resourceId=rid("cab_rename")).click()
    assert d(resourceId=rid("alertTitle")).get_text() == "Rename playlist"
    assert d(resourceId=rid("new_playlist_title")).get_text() == "road"
    d(resourceId=rid("new_playlist_title")).clear_text()
    adbd.shell(["input", "text", "trip"])
    d(text="OK").click()
    assert texts(d, "playlist_title") == ["All tracks", "trip"]
    d(text="trip").long_click()
    d(resourceId=rid("cab_delete")).click()
    assert d(resourceId=rid("alertTitle")).get_text() == "Remove playlist"
    assert not d(resourceId=rid("remove_playlist_checkbox")).info["checked"]
    d(text="OK").click()
    assert texts(d, "playlist_title") == ["All tracks"]


def test_sleep_timer_and_customize_colors(player):
    d = player
    overflow(d, "Sleep timer")
    assert [r.get("text") for r in radios(d)][:2] == ["5 minutes", "10 minutes"]
    d(text="5 minutes").click()
    assert d(resourceId=rid("sleep_timer_value")).get_text() == "05:00"
    d(resourceId=rid("sleep_timer_stop")).click()
    assert not d(resourceId=rid("sleep_timer_holder")).exists


def test_fidelity_doc_lists_every_id_of_the_model(tmp_path):
    """Every id the modules name literally and every id on the activities' screens is in the doc."""
    doc = fidelity_doc("musicplayer")
    source = package_source("musicplayer")
    names = literal_ids(source) | screen_ids(tmp_path, PKG)
    missing = sorted(n for n in names if f"`{n}`" not in doc and not re.search(rf"`[^`]*\b{n}\b", doc))
    assert not missing, f"ids missing from docs/fidelity/musicplayer.md: {missing}"


def icon_pixels(d, name: str) -> bytes:
    """The pixels of a view's bounds on the screen (a PNG, so exact)."""
    bounds = d(resourceId=rid(name)).info["bounds"]
    box = (bounds["left"], bounds["top"], bounds["right"], bounds["bottom"])
    return d.screenshot(format="pillow").convert("RGB").crop(box).tobytes()


def test_play_pause_icons_follow_the_playback_state(player, media):
    """updateTrackState: the current-track bar's icon shows pause while playing and play once
    paused, so a paused song looks paused."""
    d = player
    media("tagged.mp3", id3("Blue Sky", "The Band", "Weather", "2001"))
    overflow(d, "Rescan media")
    d(text="Tracks").click()
    d(text="Blue Sky").click()
    d.press("back")  # from the track screen to the list and its bar
    playing = icon_pixels(d, "current_track_play_pause")
    d(resourceId=rid("current_track_play_pause")).click()
    paused = icon_pixels(d, "current_track_play_pause")
    assert paused != playing, "the bar's icon did not change when playback paused"
    d(resourceId=rid("current_track_play_pause")).click()
    assert icon_pixels(d, "current_track_play_pause") == playing
