"""Music Player tasks (MobileAgentBench music_player_*).

Every task starts on a fresh app (pm clear): the Playlists tab with only "All tracks". Tasks
whose benchmark setup tapped the Albums tab start there. The library is scanned from /sdcard when
the main screen is created and on Rescan media, so albums and tracks are seeded by pushing small
ID3-tagged mp3 files before the app starts (after it, for the rescan task), and removed after.

MobileAgentBench judged most of these by a click on "OK" right after a click on "Descending" or
"Year" (in any tab's dialog), or by the text of a field (a name typed, the dialog then left, a
case-insensitive match). Here the app's saved data is read back: the tab's sort order, the
playlists, the equalizer preset, the scanned library; screens only for searches and pages.
"""

from __future__ import annotations

import pytest

from pytest_mobile_agent import Key, Tap, Type, task
from task_suites.shared.apps import MUSIC_PLAYER, rid
from task_suites.shared.near_misses import NO_ALLOWANCE, SCREEN_ONLY, labelled, not_applicable
from task_suites.shared.reading import app_object, pref
from task_suites.shared.seeds import MUSIC_DIR, push_tracks, remove_tracks, run_in_app, run_steps
from task_suites.shared.variations import WORDS

MORE = Tap(desc="More options")
SORT = Tap(id=rid(MUSIC_PLAYER, "sort"))
SEARCH = rid(MUSIC_PLAYER, "top_toolbar_search")
PLAYLIST_TITLE = rid(MUSIC_PLAYER, "playlist_title")
FAQ_ITEM = "How can I fast-forward songs?"
LIBRARY = "files/library.json"
PLAYLISTS_DESCENDING = [SORT, Tap(text="Descending"), Tap(text="OK")]
ALL_TRACKS = f"{LIBRARY}:playlists[id=1]"  # the playlist every scan fills
ONE_SETTING = "one stored setting, read back; any other setting changed fails the task"
STORED = "the stored setting is read, not the screen"
SAME_NAME = "Music Player refuses a second playlist of the same name"
NEW_PLAYLIST = "the new playlist is read back from the library, title and tracks"
# (file, title, artist, album, year): title, artist and year orders of the albums all differ.
ALBUMS = (
    ("abbey_road.mp3", "Come Together", "The Beatles", "Abbey Road", 1969),
    ("blue_train.mp3", "Moment's Notice", "John Coltrane", "Blue Train", 1957),
    ("currents.mp3", "Let It Happen", "Tame Impala", "Currents", 2015),
)
# The benchmark's rescan assets were music1.mp3 and music2.mp3.
RESCANNED = (("music1.mp3", "Morning", "Test Artist", "Test Album", 2020),)
RESCANNED += (("music2.mp3", "Evening", "Test Artist", "Test Album", 2021),)


def sorting(changes, tab: str) -> tuple[str, bool]:
    """A tab's sort as the task saved it: (field, descending)."""
    by, desc = changes.value(MUSIC_PLAYER, pref(f"{tab}_sorting"))
    return by, desc


def added_playlist(changes) -> str:
    """The title of the one playlist the task added."""
    playlist = changes.added(MUSIC_PLAYER, f"{LIBRARY}:playlists*")
    assert not playlist["tracks"], f"tracks put in {playlist['title']!r}, which nobody asked for"
    return playlist["title"]


def playlists(device) -> list[str]:
    return [p["title"] for p in app_object(device, MUSIC_PLAYER, "library").get("playlists", [])]


def playlist_titles(ui) -> list[str]:
    return [n.text for n in ui.find_all(id=PLAYLIST_TITLE)]


def assert_playlists_tab(ui) -> None:
    """The Playlists tab is on screen with no dialog or menu over it."""
    assert ui.exists(id=rid(MUSIC_PLAYER, "playlists_fragment_holder")), "the Playlists tab is not shown"


def create_playlist(name: str = "test") -> list:
    """From the Playlists tab: the dialog opens with the focus in its title field."""
    return [MORE, Tap(text="Create new playlist"), Type(name), Tap(text="OK")]


def search(text: str) -> list:
    return [Tap(id=SEARCH), Type(text)]


@pytest.fixture(autouse=True)
def no_music(device):
    """No mp3 in Music, whatever an earlier episode pushed (recordings stay)."""
    device.sh(f"rm -f {MUSIC_DIR}/*.mp3")


@pytest.fixture
def on_albums(device):
    """MobileAgentBench's music_player_restore_playlist_functioning: the Albums tab is tapped."""
    run_in_app(device, MUSIC_PLAYER, [Tap(text="Albums")])


@pytest.fixture
def albums(device):
    """Three albums of different years, pushed before the app's first scan."""
    push_tracks(device, ALBUMS)
    yield
    remove_tracks(device, ALBUMS)


@pytest.fixture
def playlist_test(on_albums, device):
    """MobileAgentBench's setup: back to Playlists, then a playlist "Test" made through the menu."""
    run_steps(device, MUSIC_PLAYER, [Tap(text="Playlists"), *create_playlist("Test")])


@pytest.fixture
def new_files_after_scan(device):
    """The app has scanned an empty library; then music1.mp3 and music2.mp3 arrive in Music.

    MobileAgentBench pushed them from the checker when it saw the click on "More options"; the
    app is already running here, so only a rescan (not the start-up scan) can find them.
    """
    remove_tracks(device, RESCANNED)
    device.launch(MUSIC_PLAYER)
    device.ui()  # the main screen is up: its scan is done
    push_tracks(device, RESCANNED)
    yield
    remove_tracks(device, RESCANNED)


# -- sorting and playlists: saved, so where the agent stops afterwards does not matter ----------


@not_applicable(field=ONE_SETTING, multiset=ONE_SETTING, allowance=NO_ALLOWANCE, lookalike=STORED)
@task(
    prompt="sort the album by 'year'",
    app=MUSIC_PLAYER,
    name="music_player_album_sort_by_year",
    golden=[Tap(text="Albums"), SORT, Tap(text="Year"), Tap(text="OK")],
    near_miss={
        "by artist": [Tap(text="Albums"), SORT, Tap(text="Artist Name"), Tap(text="OK")],
        "and a playlist made": [
            Tap(text="Albums"),
            SORT,
            Tap(text="Year"),
            Tap(text="OK"),
            Tap(text="Playlists"),
            *create_playlist("x"),
        ],
    },
)
def test_music_player_album_sort_by_year(albums, changes):
    # By year, in either direction: the prompt names none.
    assert sorting(changes, "albums")[0] == "year", f"albums are sorted by {sorting(changes, 'albums')[0]}"


@not_applicable(field=ONE_SETTING, multiset=ONE_SETTING, allowance=NO_ALLOWANCE, lookalike=STORED)
@task(
    prompt="sort the playlist by 'desc'",
    app=MUSIC_PLAYER,
    name="music_player_playlist_sort_desc",
    golden=PLAYLISTS_DESCENDING,
    near_miss={
        "cancelled": [SORT, Tap(text="Descending"), Tap(text="Cancel")],
        "and a playlist made": [*PLAYLISTS_DESCENDING, *create_playlist("x")],
    },
)
def test_music_player_playlist_sort_desc(changes):
    assert sorting(changes, "playlists")[1], "playlists are not sorted in descending order"


def vary_playlist(rng) -> dict:
    return {"playlist": rng.choice(WORDS)}


@pytest.mark.parametrize("playlist", ["test"])
@not_applicable(field=NEW_PLAYLIST, multiset=SAME_NAME, allowance=NO_ALLOWANCE, lookalike=NEW_PLAYLIST)
@task(
    prompt="create a new playlist:{playlist}",
    app=MUSIC_PLAYER,
    name="music_player_create_playlist",
    golden=lambda playlist: [Tap(text="Playlists"), *create_playlist(playlist)],
    near_miss={
        "cancelled": lambda playlist: [Tap(text="Playlists"), *create_playlist(playlist)[:-1], Tap(text="Cancel")],
        "made twice": lambda playlist: [
            Tap(text="Playlists"),
            *create_playlist(playlist),
            *create_playlist(f"{playlist}2"),
        ],
        "made and sorted": lambda playlist: [Tap(text="Playlists"), *create_playlist(playlist), *PLAYLISTS_DESCENDING],
    },
    variations=vary_playlist,
)
def test_music_player_create_playlist(on_albums, device, changes, playlist):
    assert added_playlist(changes) == playlist, f"the playlist made is not {playlist!r}"
    assert playlist in playlists(device), f"no playlist {playlist!r}: {playlists(device)}"


@pytest.mark.parametrize("playlist", ["test"])
@not_applicable(field=NEW_PLAYLIST, multiset=SAME_NAME, allowance=NO_ALLOWANCE, lookalike=NEW_PLAYLIST)
@task(
    prompt="create a new playlist: {playlist}, and sort all playlist by descending order",
    app=MUSIC_PLAYER,
    name="music_player_create_playlist_and_sort_desc",
    golden=lambda playlist: [*create_playlist(playlist), SORT, Tap(text="Descending"), Tap(text="OK")],
    near_miss={
        "ascending": lambda playlist: [*create_playlist(playlist), SORT, Tap(text="Ascending"), Tap(text="OK")],
        "and albums sorted": lambda playlist: [
            *create_playlist(playlist),
            *PLAYLISTS_DESCENDING,
            Tap(text="Albums"),
            SORT,
            Tap(text="Year"),
            Tap(text="OK"),
        ],
    },
    variations=vary_playlist,
)
def test_music_player_create_playlist_and_sort_desc(device, changes, playlist):
    assert added_playlist(changes) == playlist, f"the playlist made is not {playlist!r}"
    assert sorting(changes, "playlists")[1], "playlists are not sorted in descending order"


# -- search -------------------------------------------------------------------------------------
# MobileAgentBench read only the search field; the search must also have found the playlist, and
# only it (the Playlists tab filtered, no dialog over it).


@pytest.mark.parametrize("playlist", ["test"])
@not_applicable(
    field=NEW_PLAYLIST,
    multiset=SAME_NAME,
    allowance=NO_ALLOWANCE,
    lookalike="the search field and its own results are read",
)
@task(
    prompt="create a new playlist: {playlist}, and search for it",
    app=MUSIC_PLAYER,
    name="music_player_create_playlist_and_search",
    golden=lambda playlist: [Tap(text="Playlists"), *create_playlist(playlist), *search(playlist)],
    near_miss={
        "a wrong name": lambda playlist: [Tap(text="Playlists"), *create_playlist(f"{playlist}s"), *search(playlist)],
        "a second playlist too": lambda playlist: [
            Tap(text="Playlists"),
            *create_playlist(playlist),
            *create_playlist("x"),
            *search(playlist),
        ],
    },
    variations=vary_playlist,
)
def test_music_player_create_playlist_and_search(on_albums, ui, changes, playlist):
    assert added_playlist(changes) == playlist, f"the playlist made is not {playlist!r}"
    assert (ui.text_of(SEARCH) or "").lower() == playlist, f"the search field holds {ui.text_of(SEARCH)!r}"
    assert_playlists_tab(ui)
    assert playlist_titles(ui) == [playlist], f"the search lists {playlist_titles(ui)}"


@not_applicable(
    field=SCREEN_ONLY,
    multiset=SCREEN_ONLY,
    allowance=NO_ALLOWANCE,
    lookalike="the search field and its own results are read",
)
@task(
    prompt="search playlist 'Test'",
    app=MUSIC_PLAYER,
    name="music_player_search_playlist",
    golden=search("Test"),
    near_miss={"a typo": search("Tset"), "sorted first": [*PLAYLISTS_DESCENDING, *search("Test")]},
)
def test_music_player_search_playlist(playlist_test, ui):
    assert (ui.text_of(SEARCH) or "").lower() == "test", f"the search field holds {ui.text_of(SEARCH)!r}"
    assert_playlists_tab(ui)
    assert playlist_titles(ui) == ["Test"], f"the search lists {playlist_titles(ui)}"


# -- library, equalizer, screens ----------------------------------------------------------------


@not_applicable(
    field="the scan's tracks are read back; nothing else may change",
    multiset="the tracks are read by path",
    lookalike="the library is read, not the Folders tab",
)
@task(
    prompt="rescan media files",
    app=MUSIC_PLAYER,
    name="music_player_rescan_media",
    golden=[MORE, Tap(text="Rescan media")],
    near_miss={
        "sleep timer": [MORE, Tap(text="Sleep timer")],
        "rescanned and sorted": [MORE, Tap(text="Rescan media"), *PLAYLISTS_DESCENDING],
        labelled("allowance", "rescanned, and a playlist made"): [
            MORE,
            Tap(text="Rescan media"),
            Tap(text="Playlists"),
            *create_playlist("x"),
        ],
    },
)
def test_music_player_rescan_media(new_files_after_scan, device, changes):
    # the scanned library, what the rescan is for: its tracks and the All tracks playlist, no other
    changes.allow(MUSIC_PLAYER, f"{LIBRARY}:tracks*")
    changes.allow(MUSIC_PLAYER, ALL_TRACKS)
    # MobileAgentBench looked for a Folders row reading "2 Tracks", which needs a tab switch the
    # minimum steps leave out; the scanned library must hold both new files, whatever tab shows.
    paths = {t["path"].rsplit("/", 1)[-1] for t in app_object(device, MUSIC_PLAYER, "library").get("tracks", [])}
    assert {name for name, *_ in RESCANNED} <= paths, f"the library holds {sorted(paths)}"


@not_applicable(field=ONE_SETTING, multiset=ONE_SETTING, allowance=NO_ALLOWANCE, lookalike=STORED)
@task(
    prompt="config equalizer to Heavy Metal",
    app=MUSIC_PLAYER,
    name="music_player_config_equalizer",
    golden=[
        Tap(id=rid(MUSIC_PLAYER, "equalizer")),
        Tap(id=rid(MUSIC_PLAYER, "equalizer_preset")),
        Tap(text="Heavy Metal"),
    ],
    near_miss={
        "hip hop": [
            Tap(id=rid(MUSIC_PLAYER, "equalizer")),
            Tap(id=rid(MUSIC_PLAYER, "equalizer_preset")),
            Tap(text="Hip Hop"),
        ],
        "set and playlists sorted": [
            *PLAYLISTS_DESCENDING,
            Tap(id=rid(MUSIC_PLAYER, "equalizer")),
            Tap(id=rid(MUSIC_PLAYER, "equalizer_preset")),
            Tap(text="Heavy Metal"),
        ],
    },
)
def test_music_player_config_equalizer(changes):
    # The saved preset (index 5 of the platform's list), not only the preset button's text.
    assert changes.value(MUSIC_PLAYER, pref("equalizer_preset")) == 5, "the equalizer preset is not Heavy Metal"


@not_applicable(field=SCREEN_ONLY, multiset=SCREEN_ONLY, allowance=NO_ALLOWANCE)
@task(
    prompt="open setting page",
    app=MUSIC_PLAYER,
    name="music_player_open_settings",
    golden=[MORE, Tap(text="Settings")],
    near_miss={
        labelled("lookalike", "the About page instead"): [MORE, Tap(text="About")],
        "sorted first": [*PLAYLISTS_DESCENDING, MORE, Tap(text="Settings")],
    },
)
def test_music_player_open_settings(ui):
    assert ui.exists(id=rid(MUSIC_PLAYER, "settings_holder")), "the Music Player settings are not shown"


@not_applicable(
    field=SCREEN_ONLY,
    multiset=SCREEN_ONLY,
    allowance=NO_ALLOWANCE,
    lookalike="the check reads a question of the FAQ itself",
)
@task(
    prompt="open faq page",
    app=MUSIC_PLAYER,
    name="music_player_open_faq",
    golden=[MORE, Tap(text="About"), Tap(text="Frequently asked questions")],
    near_miss={
        "back from about": [MORE, Tap(text="About"), Key("back")],
        "sorted first": [*PLAYLISTS_DESCENDING, MORE, Tap(text="About"), Tap(text="Frequently asked questions")],
    },
)
def test_music_player_open_faq(ui):
    # The About screen has a "Frequently asked questions" row too: the FAQ's own items must show.
    assert ui.package == MUSIC_PLAYER and ui.exists(text=FAQ_ITEM), "the FAQ page is not shown"
