"""File Manager tasks (MobileAgentBench filemanager_*).

Files are real files under /sdcard, which `pm clear` does not touch: the preconditions push them
into Download (MobileAgentBench made them through the app's "Create new" dialog) and every task
removes its names before and after. Each task grants all-files access, as MobileAgentBench's
setup did through the system screen, so the app opens without its access prompt. Where the
benchmark's setup left the app inside Download (it created the files there), the fixture opens
Download too.

MobileAgentBench judged by what was on screen ("> Download" and the names listed) or by a click
on "OK"; here the files are listed on the device, settings read from the app's stored
preferences, and screens only where the task is to show something (properties, search, the
storage page).
"""

from __future__ import annotations

import pytest

from pytest_mobile_agent import LongPress, Tap, Type, task
from task_suites.shared.apps import FILE_MANAGER, rid
from task_suites.shared.media import media_bytes
from task_suites.shared.near_misses import NO_ALLOWANCE, SCREEN_ONLY, labelled, not_applicable
from task_suites.shared.reading import prefs
from task_suites.shared.seeds import push_files, run_in_app, run_steps
from task_suites.shared.variations import WORDS

GRANTS = ("android.permission.MANAGE_EXTERNAL_STORAGE",)
DOWNLOAD = "/sdcard/Download"
ROOT = "/storage/emulated/0"
MORE = Tap(desc="More options")
YES = Tap(text="Yes")
DELETE = Tap(id=rid(FILE_MANAGER, "cab_delete"))
SEARCH = rid(FILE_MANAGER, "top_toolbar_search")
STANDARD_FOLDERS = (
    "Alarms",
    "DCIM",
    "Documents",
    "Download",
    "Movies",
    "Music",
    "Notifications",
    "Pictures",
    "Podcasts",
    "Recordings",
    "Ringtones",
)
OTHER = "other.txt"  # a file beside the task's own, which the task must leave alone
RENAME_FIELD = rid(FILE_MANAGER, "rename_item_name")
EMPTY = "d41d8cd98f00b204e9800998ecf8427e"  # the md5 of no bytes: the durable state's value of an empty file
ONE_NAME = "a name is unique in its folder: no file made or deleted twice"
GONE = "a deleted file has no fields left; the files kept are read back"
READ_BACK = "the files are read from the device, not the listing"


def delete(name: str) -> list:
    return [LongPress(text=name), DELETE, YES]


def hide(name: str) -> list:
    """Hidden instead of deleted: renamed with a leading dot (the extension field keeps .txt)."""
    return [
        LongPress(text=name),
        Tap(desc="Rename"),
        LongPress(id=RENAME_FIELD),
        Type("." + name.split(".")[0]),
        Tap(text="OK"),
    ]


SORT_BY_SIZE = [Tap(desc="Sort by"), Tap(id=rid(FILE_MANAGER, "sorting_dialog_radio_size")), Tap(text="OK")]
TXT_FILES = ("voice.m4a", "random.txt", "video.mov")
VIDEO_FILES = ("iccv.mp3", "icml.mp4", "aaai.txt", "corl.avi", "neurips.exe", "cvpr.mov")
VIDEOS = ("icml.mp4", "corl.avi", "cvpr.mov")


def push(device, *names: str) -> None:
    push_files(device, [(f"{DOWNLOAD}/{name}", media_bytes(name)) for name in names])


def open_download(device) -> None:
    """Harness-driven UI step: the app shows Download, as MobileAgentBench's setups left it."""
    run_in_app(device, FILE_MANAGER, [Tap(text="Download")])


def download(device) -> set[str]:
    """Names in /sdcard/Download, hidden ones included."""
    return set(device.sh(f"ls -a {DOWNLOAD} 2>/dev/null", check=False).split()) - {".", ".."}  # gone: none


def listed(ui) -> list[str]:
    return [n.text for n in ui.find_all(id=rid(FILE_MANAGER, "item_name"))]


def current_folder(ui) -> str:
    """The last breadcrumb: "Internal" at the root, "> Download" inside it."""
    crumbs = ui.find_all(id=rid(FILE_MANAGER, "breadcrumb_text"))
    return crumbs[-1].text if crumbs else ""


@pytest.fixture(autouse=True)
def clean_download(device):
    """Download starts empty (hidden files too), and the main page shows Android's standard
    folders, whatever an earlier episode left or deleted."""
    device.sh(f"rm -rf {DOWNLOAD} && cd /sdcard && mkdir -p {' '.join(STANDARD_FOLDERS)}")


@pytest.fixture
def testfile(device):
    """testfile.txt (and other.txt) in Download; the app shows Download."""
    push(device, "testfile.txt", OTHER)
    open_download(device)


@pytest.fixture
def capital_testfile(device):
    """The setup of filemanager_rename_file, _delete_file and _check_file_properties: MobileAgentBench's
    default name, Testfile.txt (and other.txt), whatever case the prompt spells it in."""
    push(device, "Testfile.txt", OTHER)
    open_download(device)


@pytest.fixture
def txt_and_media(device):
    push(device, *TXT_FILES)
    open_download(device)


@pytest.fixture
def videos_and_others(device):
    push(device, *VIDEO_FILES)
    open_download(device)


@pytest.fixture
def hidden_folder_shown(device):
    """filemanager_hide_folder's setup: a folder 'hidden' in Download, and hidden items
    temporarily shown (which lasts while the app's screen lives)."""
    device.sh(f"mkdir -p {DOWNLOAD}/hidden")
    push(device, OTHER)
    open_download(device)
    run_steps(device, FILE_MANAGER, [MORE, Tap(text="Temporarily show hidden")])


# -- files in Download --------------------------------------------------------------------------


def new_item(name: str, file: bool = True) -> list:
    """From Download: the name field has the focus; "Folder" is checked until File is tapped."""
    return [
        Tap(id=rid(FILE_MANAGER, "items_fab")),
        Type(name),
        *([Tap(id=rid(FILE_MANAGER, "dialog_radio_file"))] if file else []),
        Tap(text="OK"),
    ]


@pytest.mark.parametrize("file", ["testfile.txt"])
@not_applicable(multiset=ONE_NAME, allowance=NO_ALLOWANCE, lookalike=READ_BACK)
@task(
    prompt="Create a new file named '{file}' in the 'Downloads' folder",
    app=FILE_MANAGER,
    grants=GRANTS,
    name="filemanager_create_new_file",
    golden=lambda file: [Tap(text="Download"), *new_item(file)],
    near_miss={
        "a folder": lambda file: [Tap(text="Download"), *new_item(file, file=False)],  # a folder named so
        "and a folder too": lambda file: [Tap(text="Download"), *new_item(file), *new_item("extra", file=False)],
        labelled("field", "created, and text saved in it"): lambda file: [
            Tap(text="Download"),
            *new_item(file),
            Tap(text=file),
            Type("x", id=rid(FILE_MANAGER, "read_text_view")),
            Tap(id=rid(FILE_MANAGER, "menu_save")),
        ],
    },
    variations=lambda rng: {"file": f"{rng.choice(WORDS)}.txt"},
)
def test_filemanager_create_new_file(device, changes, file):
    # MobileAgentBench wanted a click on "File" and the name listed under "> Download"; the file
    # must exist there, and be a file (and the only new thing).
    assert changes.added("files", f"Download/{file}") == EMPTY, f"{file} is not empty: something was written in it"
    out = device.sh(f"test -f {DOWNLOAD}/{file} && echo file || echo missing").strip()
    assert out == "file", f"no file {file} in Download"


@not_applicable(multiset=SCREEN_ONLY, allowance=NO_ALLOWANCE)
@task(
    prompt="open the folder 'Downloads' and check the properties of the file 'testfile.txt'",
    app=FILE_MANAGER,
    grants=GRANTS,
    name="filemanager_check_file_properties",
    golden=[LongPress(text="Testfile.txt"), Tap(desc="Properties")],
    near_miss={
        "rename instead": [LongPress(text="Testfile.txt"), Tap(desc="Rename")],
        labelled("lookalike", "other.txt's properties"): [LongPress(text=OTHER), Tap(desc="Properties")],
        labelled("field", "Download sorted by size on the way"): [
            *SORT_BY_SIZE,
            LongPress(text="Testfile.txt"),
            Tap(desc="Properties"),
        ],
    },
)
def test_filemanager_check_file_properties(capital_testfile, ui):
    # MobileAgentBench counted the texts of a window titled Properties; here its rows must be
    # Testfile.txt's (its setup's name for the prompt's file), in Download.
    assert ui.exists(text="Properties"), "no Properties dialog"
    rows = {
        label.text: next((c.text for c in label.parent.children if c.id == rid(FILE_MANAGER, "property_value")), "")
        for label in ui.find_all(id=rid(FILE_MANAGER, "property_label"))
        if label.parent is not None
    }
    name, path = rows.get(ui.tr("Name")), rows.get(ui.tr("Path"))  # the labels in the device's locale
    assert name == "Testfile.txt", f"properties of {name!r}"
    assert path == f"{ROOT}/Download", f"properties of a file in {path!r}"


@not_applicable(field=GONE, multiset=ONE_NAME, allowance=NO_ALLOWANCE)
@task(
    prompt="Delete file named 'testfile.txt' in the 'Downloads' folder",
    app=FILE_MANAGER,
    grants=GRANTS,
    name="filemanager_delete_file",
    golden=delete("Testfile.txt"),
    near_miss={
        "not confirmed": [LongPress(text="Testfile.txt"), DELETE, Tap(text="No")],
        labelled("lookalike", "hidden: gone from the listing"): hide("Testfile.txt"),
        "other.txt deleted too": [*delete("Testfile.txt"), *delete(OTHER)],
    },
)
def test_filemanager_delete_file(capital_testfile, device, changes):
    # MobileAgentBench wanted the name gone from a screen showing "> Download" (a search there
    # that found nothing passed); the file (its setup's Testfile.txt) must be gone, not hidden or
    # renamed, and only it.
    changes.removed("files", "Download/Testfile.txt")
    assert "Testfile.txt" not in download(device), "Testfile.txt is still in Download"


@not_applicable(field=GONE, multiset=ONE_NAME, allowance=NO_ALLOWANCE)
@task(
    prompt="Delete the txt file in Download folder",
    app=FILE_MANAGER,
    grants=GRANTS,
    name="filemanager_delete_txt",
    golden=delete("random.txt"),
    near_miss={
        "the video instead": delete("video.mov"),
        labelled("lookalike", "hidden: gone from the listing"): hide("random.txt"),
        "the video too": [*delete("random.txt"), *delete("video.mov")],
    },
)
def test_filemanager_delete_txt(txt_and_media, device, changes):
    changes.removed("files", "Download/random.txt")
    names = download(device)
    assert "random.txt" not in names, "random.txt is still in Download"
    assert {"voice.m4a", "video.mov"} <= names, f"other files deleted too: {sorted(names)}"


# Selecting the three videos and deleting them at once takes 5 steps; the table's 9 is deleting
# them one by one (long press, Delete, Yes each), which is the golden path here.
@not_applicable(field=GONE, multiset=ONE_NAME, allowance=NO_ALLOWANCE, lookalike=READ_BACK)
@task(
    prompt="Delete all videos in Download folder",
    app=FILE_MANAGER,
    grants=GRANTS,
    name="filemanager_delete_videos",
    golden=[action for name in VIDEOS for action in (LongPress(text=name), DELETE, YES)],
    near_miss={
        "the audio file for corl.avi": [a for name in ("icml.mp4", "iccv.mp3", "cvpr.mov") for a in delete(name)],
        "aaai.txt too": [*(a for name in VIDEOS for a in delete(name)), *delete("aaai.txt")],
    },
)
def test_filemanager_delete_videos(videos_and_others, device, changes):
    removed = {c.key for c in changes.where("files", "removed")}
    assert removed == {f"Download/{v}" for v in VIDEOS}, f"deleted: {sorted(removed)}"
    names = download(device)
    assert not names & set(VIDEOS), f"videos left: {sorted(names & set(VIDEOS))}"
    kept = {"iccv.mp3", "aaai.txt", "neurips.exe"}
    assert kept <= names, f"other files deleted too: {sorted(kept - names)}"


# The table counts 4 steps, which needs the name field set in one go. Typing appends at the
# cursor (the dialog puts it after "Testfile"), so the name is selected first (a long press
# selects the word): 5 steps.
def rename_to(name: str, stem: str) -> list:
    return [LongPress(text=name), Tap(desc="Rename"), LongPress(id=RENAME_FIELD), Type(stem), Tap(text="OK")]


@pytest.mark.parametrize("stem", ["testfile1"])
@not_applicable(
    field="the renamed file's content is compared with the old one's",
    multiset=ONE_NAME,
    allowance=NO_ALLOWANCE,
)
@task(
    prompt="open the folder 'Downloads' and rename the file 'Testfile.txt' to '{stem}.txt'",
    app=FILE_MANAGER,
    grants=GRANTS,
    name="filemanager_rename_file",
    golden=lambda stem: rename_to("Testfile.txt", stem),
    golden_steps=5,
    near_miss={
        # the full name typed into the name field, which keeps its extension
        labelled("lookalike", "the extension typed twice: the field reads right"): lambda stem: rename_to(
            "Testfile.txt", f"{stem}.txt"
        ),
        "other.txt renamed": lambda stem: rename_to(OTHER, stem),
        "renamed and other.txt deleted": lambda stem: [*rename_to("Testfile.txt", stem), *delete(OTHER)],
    },
    variations=lambda rng: {"stem": f"{rng.choice(WORDS)}{rng.randint(1, 9)}"},
)
def test_filemanager_rename_file(capital_testfile, device, changes, stem):
    changes.moved("files", "Download/Testfile.txt", f"Download/{stem}.txt")  # the same content
    # MobileAgentBench wanted "testfile1.txt" in the name field, which the separate extension
    # field turns into testfile1.txt.txt, while the right entry (testfile1) failed it. The file
    # on the device is what counts.
    names = download(device)
    assert f"{stem}.txt" in names, f"no {stem}.txt in Download: {sorted(names)}"
    assert "Testfile.txt" not in names, "Testfile.txt is still there"


@not_applicable(
    field="the folder is moved whole (its content compared); the listing must lack it",
    multiset=ONE_NAME,
    allowance=NO_ALLOWANCE,
    lookalike="the folder is read on the device as well as in the listing",
)
@task(
    prompt="Hide the folder named 'hidden' and make sure File Manager Stop showing hidden media",
    app=FILE_MANAGER,
    grants=GRANTS,
    name="filemanager_hide_folder",
    # The table counts 3 (long press, More options, Hide), which leaves hidden items shown: the
    # setup turned on "Temporarily show hidden", so stopping it takes 2 more.
    golden=[LongPress(text="hidden"), MORE, Tap(text="Hide"), MORE, Tap(text="Stop showing hidden media")],
    golden_steps=5,
    near_miss={
        "still shown": [LongPress(text="hidden"), MORE, Tap(text="Hide")],
        "other.txt deleted too": [
            LongPress(text="hidden"),
            MORE,
            Tap(text="Hide"),
            *delete(OTHER),
            MORE,
            Tap(text="Stop showing hidden media"),
        ],
    },
)
def test_filemanager_hide_folder(hidden_folder_shown, ui, device, changes):
    changes.moved("files", "Download/hidden/", "Download/.hidden/")
    # MobileAgentBench wanted ".hidden" on screen: hidden while hidden items are still shown,
    # the opposite of the prompt's second half. Here Download is shown without it...
    assert current_folder(ui) == "> Download", f"the app shows {current_folder(ui)!r}, not Download"
    assert ".hidden" not in listed(ui), "hidden items are still shown"
    # ...and the folder is hidden (renamed with a leading dot) on the device.
    names = download(device)
    assert ".hidden" in names and "hidden" not in names, f"Download holds {sorted(names & {'hidden', '.hidden'})}"


# -- the main screen ----------------------------------------------------------------------------


@not_applicable(
    field=SCREEN_ONLY,
    multiset=SCREEN_ONLY,
    allowance=NO_ALLOWANCE,
    lookalike="no folder is asked: a search anywhere that finds testfile.txt is the goal",
)
@task(
    prompt="Search a file named 'testfile.txt'",
    app=FILE_MANAGER,
    grants=GRANTS,
    name="filemanager_search_file",
    golden=[Tap(id=SEARCH), Type("testfile.txt")],
    near_miss={
        "a wrong name": [Tap(id=SEARCH), Type("testfile1.txt")],
        "other.txt deleted first": [*delete(OTHER), Tap(id=SEARCH), Type("testfile.txt")],
    },
)
def test_filemanager_search_file(testfile, ui):
    # MobileAgentBench read the search field only; the file must be among the results too.
    assert ui.text_of(SEARCH) == "testfile.txt", f"the search field holds {ui.text_of(SEARCH)!r}"
    assert "testfile.txt" in listed(ui), f"results: {listed(ui)}"


@not_applicable(field=SCREEN_ONLY, multiset=SCREEN_ONLY, allowance=NO_ALLOWANCE)
@task(
    prompt="check the storage page",
    app=FILE_MANAGER,
    grants=GRANTS,
    name="filemanager_check_storage",
    golden=[Tap(text="Storage")],
    near_miss={
        labelled("lookalike", "the Recents tab instead"): [Tap(text="Recents")],
        "Alarms deleted first": [*delete("Alarms"), Tap(text="Storage")],
    },
)
def test_filemanager_check_storage(ui):
    total = ui.text_of(rid(FILE_MANAGER, "total_space")) or ""
    label = ui.tr("Total storage: %s").split("%s")[0]  # in the device's locale
    assert ui.package == FILE_MANAGER and total.startswith(label), "the storage page is not shown"


@not_applicable(
    field="the main page's stored sorting is read whole (by, descending)",
    multiset="one sorting stored",
    lookalike="the stored sorting is read, not the listing's order",
)
@task(
    prompt="In the main page, sort the folder by size in descending order",
    app=FILE_MANAGER,
    grants=GRANTS,
    name="filemanager_sort_folder_by_size_desc",
    golden=[
        Tap(desc="Sort by"),
        Tap(id=rid(FILE_MANAGER, "sorting_dialog_radio_size")),
        Tap(id=rid(FILE_MANAGER, "sorting_dialog_radio_descending")),
        Tap(text="OK"),
    ],
    near_miss={
        "left ascending": SORT_BY_SIZE,
        # Not a folder deleted: the empty folders tie by size, so which of them the sorted list
        # shows above the fold is the listing's order, and a fixed path could not reach one.
        "sorted and a folder made": [
            Tap(desc="Sort by"),
            Tap(id=rid(FILE_MANAGER, "sorting_dialog_radio_size")),
            Tap(id=rid(FILE_MANAGER, "sorting_dialog_radio_descending")),
            Tap(text="OK"),
            Tap(id=rid(FILE_MANAGER, "items_fab")),
            Type("extra"),
            Tap(text="OK"),
        ],
        labelled("allowance", "sorted, and Download given a sorting of its own"): [
            Tap(desc="Sort by"),
            Tap(id=rid(FILE_MANAGER, "sorting_dialog_radio_size")),
            Tap(id=rid(FILE_MANAGER, "sorting_dialog_radio_descending")),
            Tap(text="OK"),
            Tap(text="Download"),
            Tap(desc="Sort by"),
            Tap(id=rid(FILE_MANAGER, "sorting_dialog_radio_name")),
            Tap(id=rid(FILE_MANAGER, "sorting_dialog_use_for_this_folder")),
            Tap(text="OK"),
            Tap(text="Internal"),
        ],
    },
)
def test_filemanager_sort_folder_by_size_desc(ui, device, changes):
    changes.allow(FILE_MANAGER, "files/prefs.json:*sorting")  # for all folders, or for this one
    # MobileAgentBench wanted the Size and Descending rows seen (they always are in the dialog)
    # and an "OK" click: any OK passed. The main page's sorting must be stored as asked (for
    # all folders or for this one), with the dialog closed.
    assert current_folder(ui) == ui.tr("Internal"), f"the app shows {current_folder(ui)!r}, not the main page"
    settings = prefs(device, FILE_MANAGER)
    sort = settings.get("folder_sorting", {}).get(ROOT) or settings.get("sorting", {})
    # the allowance admits a folder's own sorting: only the main page's may be one
    others = sorted(set(settings.get("folder_sorting", {})) - {ROOT})
    assert not others, f"sorted too, which nobody asked for: {others}"
    assert (sort.get("by"), sort.get("desc")) == ("size", True), f"the main page is sorted by {sort or 'name'}"
