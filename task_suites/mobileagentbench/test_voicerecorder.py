"""Voice Recorder tasks (MobileAgentBench recorder_*).

The app lists the audio files of /sdcard/Music/Recordings, newest first, so recordings are
seeded by pushing files named as the app names them (yyyy_MM_dd_HH_mm_ss.m4a), oldest first; the
folder is emptied before and after every task. Deleting goes through the app's confirmation and
then Android's media provider prompt ("Allow"), which the step counts include; with the Recycle
Bin on (the default) a deleted recording is renamed .trashed-<expiry>-<name>, as Android 11+ does.

MobileAgentBench read texts on screen ("Bitrate" and "32 kbps" anywhere, "No recordings" in the
placeholder) or a click on a settings row; here the files in the folder and the app's saved
settings are read back.
"""

from __future__ import annotations

import pytest

from pytest_mobile_agent import Key, LongPress, Scroll, Tap, Type, task
from task_suites.shared.apps import VOICE_RECORDER, rid
from task_suites.shared.near_misses import NO_ALLOWANCE, SCREEN_ONLY, labelled, not_applicable
from task_suites.shared.reading import pref
from task_suites.shared.seeds import push_files
from task_suites.shared.variations import WORDS

ONE_SETTING = "one stored setting, read back; any other setting changed fails the task"
STORED = "the stored setting is read, not the screen"
FOLDER = "the recordings folder is listed whole, in order, and the deletions read back"

FOLDER = "/sdcard/Music/Recordings"
SETTINGS = Tap(id=rid(VOICE_RECORDER, "settings"))
PLAYER = Tap(text="Player")
# A short M4A header and silence; the app does not play them.
M4A = b"\x00\x00\x00\x18ftypM4A \x00\x00\x00\x00M4A isom" + bytes(2000)
RECORDINGS = ("2024_05_15_08_30_00.m4a", "2024_05_15_08_45_10.m4a", "2024_05_15_09_02_41.m4a")
TRASHED = ".trashed-1718445600-2024_05_14_18_20_05.m4a"  # in the Recycle Bin until June 2024
REC = "Music/Recordings"  # the folder as durable-state keys name it (relative to /sdcard)
MP3 = [Tap(text="Extension"), Tap(text="mp3")]  # a setting changed on the way: nobody asked
BITRATE_32 = [Tap(text="Bitrate"), Tap(text="32 kbps")]
# The theme's colours, saved with it.
THEME_PREFS = ("*_color", "is_using_system_theme", "custom_theme_hint", "is_global_theme_enabled")


def files(device) -> list[str]:
    """The names in the recordings folder, trashed ones included."""
    out = device.sh(f"ls -a {FOLDER} 2>/dev/null", check=False)  # no folder yet: no names
    return sorted(name for name in out.split() if name not in (".", ".."))


def shown(names: list[str]) -> list[str]:
    """The recordings the Player lists: not trashed."""
    return [name for name in names if not name.startswith(".trashed-")]


def push(device, *names: str) -> None:
    push_files(device, [(f"{FOLDER}/{name}", M4A) for name in names])


def row_menu(item: str, row: int = 0) -> list:
    """A row's three-dot menu (it has no description) and one of its items."""
    return [Tap(id=rid(VOICE_RECORDER, "overflow_menu_icon"), index=row), Tap(text=item)]


def delete(row: int = 0, answer: str = "Allow") -> list:
    """Delete, Yes on the app's question, then the media provider's prompt."""
    return [*row_menu("Delete", row), Tap(text="Yes"), Tap(text=answer)]


def rename(name: str, row: int = 0) -> list:
    """The field holds the old name with the cursor at its end: a long press selects the word."""
    return [
        *row_menu("Rename", row),
        LongPress(id=rid(VOICE_RECORDER, "rename_recording_title")),
        Type(name),
        Tap(text="OK"),
    ]


def choose(row: str, value: str) -> list:
    return [SETTINGS, Tap(text=row), Tap(text=value)]


def deleted(changes, *names: str) -> None:
    """These recordings, and only they, left the Player: deleted, or moved to the Recycle Bin
    (renamed .trashed-<expiry>-<name>) with their content."""
    removed = changes.where("files", "removed", f"{REC}/*")
    assert sorted(c.key.rsplit("/", 1)[1] for c in removed) == sorted(names), f"deleted: {removed}"
    for c in removed:
        name = c.key.rsplit("/", 1)[1]
        for trashed in changes.where("files", "added", f"{REC}/.trashed-*-{name}"):
            assert trashed.after == c.before, f"{name} in the Recycle Bin with other content"


@pytest.fixture(autouse=True)
def empty_folder(device):
    """Recordings are shared storage, which pm clear leaves: MobileAgentBench's teardown emptied it."""
    device.sh(f"rm -rf {FOLDER}; mkdir -p {FOLDER}")
    yield
    device.sh(f"rm -rf {FOLDER}")


@pytest.fixture
def one_recording(device):
    push(device, RECORDINGS[0])


@pytest.fixture
def two_recordings(device):
    push(device, *RECORDINGS[:2])


@pytest.fixture
def three_recordings(device):
    push(device, *RECORDINGS)


@pytest.fixture
def recording_and_trash(device):
    """A recording in the Player and an older one in the Recycle Bin."""
    push(device, TRASHED, RECORDINGS[0])


# -- settings -----------------------------------------------------------------------------------


@not_applicable(field=ONE_SETTING, multiset=ONE_SETTING, allowance=NO_ALLOWANCE, lookalike=STORED)
@task(
    prompt="change bitrate to 32 kbps",
    app=VOICE_RECORDER,
    name="recorder_bit_rate",
    golden=choose("Bitrate", "32 kbps"),
    near_miss={"64 kbps": choose("Bitrate", "64 kbps"), "and mp3": [*choose("Bitrate", "32 kbps"), *MP3]},
)
def test_recorder_bit_rate(changes):
    assert changes.value(VOICE_RECORDER, pref("bitrate")) == 32, "the bitrate is not 32 kbps"


@not_applicable(field=ONE_SETTING, multiset=ONE_SETTING, allowance=NO_ALLOWANCE, lookalike=STORED)
@task(
    prompt="use mp3 as the format for new recordings",
    app=VOICE_RECORDER,
    name="recorder_extension",
    golden=choose("Extension", "mp3"),
    near_miss={"ogg": choose("Extension", "ogg (Opus)"), "and 32 kbps": [*choose("Extension", "mp3"), *BITRATE_32]},
)
def test_recorder_extension(changes):
    assert changes.value(VOICE_RECORDER, pref("extension")) == 1, "new recordings are not mp3"  # m4a, mp3, ogg


# The row is on screen below the others; the scroll brings the Recycle Bin section into full
# view, as the expert flow does on a smaller screen (the table's 3 steps).
@not_applicable(field=ONE_SETTING, multiset=ONE_SETTING, allowance=NO_ALLOWANCE)
@task(
    prompt="change settings, so that the deleted items will not go to recycle bin",
    app=VOICE_RECORDER,
    name="recorder_recycle_settings",
    golden=[
        SETTINGS,
        Scroll("down", id=rid(VOICE_RECORDER, "settings_nested_scrollview")),
        Tap(id=rid(VOICE_RECORDER, "settings_use_recycle_bin_holder")),
    ],
    near_miss={
        labelled("lookalike", "the switch next to it instead"): [
            SETTINGS,
            Scroll("down", id=rid(VOICE_RECORDER, "settings_nested_scrollview")),
            Tap(id=rid(VOICE_RECORDER, "settings_hide_notification_holder")),
        ],
        "and the notification hidden": [
            SETTINGS,
            Scroll("down", id=rid(VOICE_RECORDER, "settings_nested_scrollview")),
            Tap(id=rid(VOICE_RECORDER, "settings_use_recycle_bin_holder")),
            Tap(id=rid(VOICE_RECORDER, "settings_hide_notification_holder")),
        ],
    },
)
def test_recorder_recycle_settings(changes):
    assert changes.value(VOICE_RECORDER, pref("use_recycle_bin")) is False, (
        "deleted recordings still go to the Recycle Bin"
    )


@not_applicable(
    field=ONE_SETTING,
    multiset=ONE_SETTING,
    allowance="the colours the theme stores with it; changing any makes the theme Custom, which fails",
    lookalike=STORED,
)
@task(
    prompt="change app theme to dark red",
    app=VOICE_RECORDER,
    name="recorder_theme",
    golden=[
        SETTINGS,
        Tap(text="Customize colors"),
        Tap(id=rid(VOICE_RECORDER, "customization_theme_holder")),
        Tap(text="OK"),  # the one-time warning about app icon colours
        Tap(text="Dark red"),
        Tap(desc="Save"),
    ],
    near_miss={
        "dark": [
            SETTINGS,
            Tap(text="Customize colors"),
            Tap(id=rid(VOICE_RECORDER, "customization_theme_holder")),
            Tap(text="OK"),
            Tap(text="Dark"),
            Tap(desc="Save"),
        ],
        "and 32 kbps": [
            SETTINGS,
            *BITRATE_32,
            Tap(text="Customize colors"),
            Tap(id=rid(VOICE_RECORDER, "customization_theme_holder")),
            Tap(text="OK"),
            Tap(text="Dark red"),
            Tap(desc="Save"),
        ],
    },
)
def test_recorder_theme(changes):
    # MobileAgentBench wanted "Theme" and "Dark red" on screen, then a click on Save; the saved
    # theme is read here.
    for key in THEME_PREFS:
        changes.allow(VOICE_RECORDER, pref(key))
    assert changes.value(VOICE_RECORDER, pref("theme")) == "Dark red", "the theme is not Dark red"


# MobileAgentBench started with an empty Recycle Bin, where the row only toasts "The Recycle Bin
# is empty" and nothing can show it was emptied. Here one recording is in the bin, so emptying
# takes the app's Yes and Android's Allow: 4 steps (the row is tappable at the bottom of the
# Settings screen without scrolling), one more than the table's 3.
@not_applicable(
    field=FOLDER,
    multiset=FOLDER,
    allowance=NO_ALLOWANCE,
    lookalike="the recordings are read on the device, not the Recycle Bin page",
)
@task(
    prompt="go to settings and empty the recycle bin",
    app=VOICE_RECORDER,
    name="recorder_empty_trash",
    golden=[
        SETTINGS,
        Tap(id=rid(VOICE_RECORDER, "settings_empty_recycle_bin_holder")),
        Tap(text="Yes"),
        Tap(text="Allow"),
    ],
    golden_steps=4,
    near_miss={
        "denied": [
            SETTINGS,
            Tap(id=rid(VOICE_RECORDER, "settings_empty_recycle_bin_holder")),
            Tap(text="Yes"),
            Tap(text="Deny"),
        ],
        "and mp3": [
            SETTINGS,
            Tap(id=rid(VOICE_RECORDER, "settings_empty_recycle_bin_holder")),
            Tap(text="Yes"),
            Tap(text="Allow"),
            *MP3,
        ],
    },
)
def test_recorder_empty_trash(recording_and_trash, device, changes):
    changes.removed("files", f"{REC}/{TRASHED}")
    assert files(device) == [RECORDINGS[0]], f"the recordings folder holds {files(device)}"


# -- pages --------------------------------------------------------------------------------------


@not_applicable(
    field=SCREEN_ONLY,
    multiset=SCREEN_ONLY,
    allowance=NO_ALLOWANCE,
    lookalike="the check names the Recycle Bin's own holder",
)
@task(
    prompt="go to recycle bin page",
    app=VOICE_RECORDER,
    name="recorder_recycle_bin",
    golden=[Tap(text="Recycle Bin")],
    near_miss={
        "the player": [PLAYER],
        "32 kbps first": [*choose("Bitrate", "32 kbps"), Key("back"), Tap(text="Recycle Bin")],
    },
)
def test_recorder_recycle_bin(ui):
    # The page itself, not a click on a view reading "Recycle Bin" (the Settings section too).
    assert ui.exists(id=rid(VOICE_RECORDER, "trash_holder")), "the Recycle Bin page is not shown"


# -- recordings ---------------------------------------------------------------------------------


@not_applicable(field=FOLDER, multiset=FOLDER, allowance=NO_ALLOWANCE)
@task(
    prompt="delete the last recorded audio",
    app=VOICE_RECORDER,
    name="recorder_delete",
    golden=[PLAYER, *delete()],
    near_miss={
        "the older one": [PLAYER, *delete(row=1)],
        labelled("lookalike", "renamed: gone from its place"): [PLAYER, *rename("old")],
        "both deleted": [PLAYER, *delete(), *delete()],
    },
)
def test_recorder_delete(two_recordings, device, changes):
    # Two recordings (the benchmark had one, where deleting everything passed): only the newest,
    # the top row, goes; moved to the Recycle Bin or deleted outright.
    deleted(changes, RECORDINGS[1])
    assert shown(files(device)) == [RECORDINGS[0]], f"recordings left: {shown(files(device))}"


@not_applicable(
    field=FOLDER,
    multiset=FOLDER,
    allowance=NO_ALLOWANCE,
    lookalike="the recordings are read on the device, not the list",
)
@task(
    prompt="delete all recorded audio",
    app=VOICE_RECORDER,
    name="recorder_delete_all",
    golden=[PLAYER, *delete(), *delete(), *delete()],
    near_miss={
        "the last denied": [PLAYER, *delete(), *delete(), *delete(answer="Deny")],
        "and 32 kbps": [PLAYER, *delete(), *delete(), *delete(), *choose("Bitrate", "32 kbps")],
    },
)
def test_recorder_delete_all(three_recordings, device, changes):
    deleted(changes, *RECORDINGS)
    assert shown(files(device)) == [], f"recordings left: {shown(files(device))}"


def vary_stem(rng) -> dict:
    return {"stem": rng.choice(WORDS)}


@pytest.mark.parametrize("stem", ["voice"])
@not_applicable(field=FOLDER, multiset=FOLDER, allowance=NO_ALLOWANCE)
@task(
    prompt="rename the first audio to '{stem}.m4a'",
    app=VOICE_RECORDER,
    name="recorder_rename",
    golden=lambda stem: [PLAYER, *rename(stem)],  # the app keeps the extension: "voice" becomes voice.m4a
    near_miss={
        labelled("lookalike", "typed after the old name: the field reads it"): lambda stem: [
            PLAYER,
            *row_menu("Rename"),
            Type(stem),
            Tap(text="OK"),
        ],
        "and 32 kbps": lambda stem: [PLAYER, *rename(stem), *choose("Bitrate", "32 kbps")],
    },
    variations=vary_stem,
)
def test_recorder_rename(one_recording, device, changes, stem):
    changes.moved("files", f"{REC}/{RECORDINGS[0]}", f"{REC}/{stem}.m4a")  # the same recording
    assert files(device) == [f"{stem}.m4a"], f"the recordings folder holds {files(device)}"


def rename_all(stem: str, last: int = 3) -> list:
    return [PLAYER, *rename(f"{stem}1.m4a", 0), *rename(f"{stem}2.m4a", 1), *rename(f"{stem}{last}.m4a", 2)]


# The table counts 13 steps: Player, then menu, Rename, name, OK for each of the three. The
# field holds the old name, so each rename also needs the long press that selects it: 16.
@pytest.mark.parametrize("stem", ["voice"])
@not_applicable(
    field=FOLDER,
    multiset=FOLDER,
    allowance=NO_ALLOWANCE,
    lookalike="the recordings are read on the device, not the list",
)
@task(
    prompt="rename all audio to {stem}1.m4a, {stem}2.m4a, and so on",
    app=VOICE_RECORDER,
    name="recorder_rename_all",
    golden=lambda stem: rename_all(stem),
    golden_steps=16,
    near_miss={
        "voice4 for voice3": lambda stem: rename_all(stem, last=4),
        "and 32 kbps": lambda stem: [*rename_all(stem), *choose("Bitrate", "32 kbps")],
    },
    variations=vary_stem,
)
def test_recorder_rename_all(three_recordings, device, changes, stem):
    renamed = changes.where("files", key=f"{REC}/*")  # three renames: the same recordings, new names
    wanted = [f"{stem}{i}.m4a" for i in (1, 2, 3)]
    assert sorted(c.key.rsplit("/", 1)[1] for c in renamed if c.kind == "added") == wanted, f"renamed: {renamed}"
    assert files(device) == wanted, f"the recordings folder holds {files(device)}"
