"""App Launcher tasks (MobileAgentBench launcher_*).

A fresh install has an empty grid; MobileAgentBench's setup for most tasks adds Chrome and
Camera through the + button, done here by the `chrome_and_camera` fixture with the same taps.
The grid and the settings are read back from the app's data (the launchers list, its prefs),
screens only where the task is to show something (search, About's sub-screens, hidden names).
"""

from __future__ import annotations

import pytest

from pytest_mobile_agent import LongPress, Tap, Type, task
from pytest_mobile_agent.locales import localize
from task_suites.shared.apps import APP_LAUNCHER, rid
from task_suites.shared.near_misses import NO_ALLOWANCE, SCREEN_ONLY, labelled, not_applicable
from task_suites.shared.reading import SORT_BY_CUSTOM, SORT_BY_TITLE, SORT_DESCENDING, app_data, pref
from task_suites.shared.seeds import run_in_app

ONE_SETTING = "one stored setting, read back; any other setting changed fails the task"
STORED = "the stored setting is read, not the screen"
GRID = "the grid is read from the app's data by package, title and all"
ONE_EACH = "the add dialog lists only apps not in the grid: none is added twice"

CHROME, CAMERA = "com.android.chrome", "com.android.camera2"
LABELS = {CHROME: "Chrome", CAMERA: "Camera"}
# commons helpers/Constants.kt sort flags
MORE = Tap(desc="More options")
OK = Tap(id="android:id/button1")
LAUNCHERS = "files/launchers.json"
HIDE_NAMES = Tap(id=rid(APP_LAUNCHER, "toggle_app_name"))  # a setting changed on the way: nobody asked
REMOVE_CAMERA = [LongPress(text="Camera"), Tap(id=rid(APP_LAUNCHER, "cab_remove")), OK]


@pytest.fixture
def chrome_and_camera(device):
    """MobileAgentBench's setup (LauncherRenameApp.setup): +, tick Chrome and Camera, OK."""
    run_in_app(device, APP_LAUNCHER, [Tap(id=rid(APP_LAUNCHER, "fab")), Tap(text="Chrome"), Tap(text="Camera"), OK])
    assert launchers(device) == {CAMERA: label(device, CAMERA), CHROME: label(device, CHROME)}


def launcher(package: str) -> str:
    """The durable-state key of one app in the grid."""
    return f"{LAUNCHERS}[package={package}]"


def label(device, package: str) -> str:
    """An app's launcher label in the device's locale: the title the launcher saves for it."""
    return localize(LABELS[package], package, device.locale)


def launchers(device) -> dict[str, str]:
    """The grid's apps: package -> title."""
    return {item["package"]: item["title"] for item in app_data(device, APP_LAUNCHER, "launchers") or []}


@not_applicable(field=GRID, multiset=ONE_EACH, allowance=NO_ALLOWANCE, lookalike=GRID)
@task(
    prompt="Add Chrome and Camera to launcher",
    app=APP_LAUNCHER,
    name="launcher_add_apps",
    golden=[Tap(id=rid(APP_LAUNCHER, "fab")), Tap(text="Chrome"), Tap(text="Camera"), OK],
    near_miss={
        "cancelled": [Tap(id=rid(APP_LAUNCHER, "fab")), Tap(text="Chrome"), Tap(text="Camera"), Tap(text="Cancel")],
        "added and names hidden": [
            Tap(id=rid(APP_LAUNCHER, "fab")),
            Tap(text="Chrome"),
            Tap(text="Camera"),
            OK,
            HIDE_NAMES,
        ],
    },
)
def test_launcher_add_apps(device, changes):
    # MobileAgentBench counted clicks on "Camera", "Chrome" and "OK" in any order (ticking one
    # twice, or OK on another dialog, passed); here the grid must hold exactly the two apps.
    added = changes.where(APP_LAUNCHER, "added", f"{LAUNCHERS}*")
    titles = {c.after["package"]: c.after["title"] for c in added}
    assert titles == {CAMERA: label(device, CAMERA), CHROME: label(device, CHROME)}


@not_applicable(multiset=SCREEN_ONLY, allowance=NO_ALLOWANCE)
@task(
    prompt="Check who is the contributor of the app",
    app=APP_LAUNCHER,
    name="launcher_check_contributor",
    golden=[MORE, Tap(text="About"), Tap(text="Contributors")],
    near_miss={
        labelled("lookalike", "the Donate page instead"): [MORE, Tap(text="About"), Tap(text="Donate")],
        labelled("field", "names hidden on the way"): [HIDE_NAMES, MORE, Tap(text="About"), Tap(text="Contributors")],
    },
)
def test_launcher_check_contributor(ui):
    # The Contributors screen must be up at the end, with its list, not only have been opened.
    assert ui.package == APP_LAUNCHER
    assert ui.exists(text="Contributors") and ui.exists(text="Development"), "the contributors are not shown"


@not_applicable(
    field=ONE_SETTING,
    multiset=ONE_SETTING,
    allowance=NO_ALLOWANCE,
    lookalike="the stored setting is read as well as the grid",
)
@task(
    prompt="Hide app name in Launcher",
    app=APP_LAUNCHER,
    name="launcher_hide_app_name",
    golden=[Tap(id=rid(APP_LAUNCHER, "toggle_app_name"))],
    near_miss={
        "app selected instead": [LongPress(text="Chrome")],
        "names hidden and Camera removed": [*REMOVE_CAMERA, HIDE_NAMES],
    },
)
def test_launcher_hide_app_name(chrome_and_camera, ui, changes):
    assert ui.exists(id=rid(APP_LAUNCHER, "launcher_icon")), "the app grid is not shown"
    assert not ui.exists(id=rid(APP_LAUNCHER, "launcher_label")), "app names are shown"
    assert changes.value(APP_LAUNCHER, pref("show_app_name")) is False


@not_applicable(multiset=SCREEN_ONLY, allowance=NO_ALLOWANCE)
@task(
    prompt="Open About page and go Frequently Asked Questions",
    app=APP_LAUNCHER,
    name="launcher_open_about_FAQ",
    golden=[MORE, Tap(text="About"), Tap(text="Frequently asked questions")],
    near_miss={
        labelled("lookalike", "the Contributors page instead"): [MORE, Tap(text="About"), Tap(text="Contributors")],
        labelled("field", "names hidden on the way"): [
            HIDE_NAMES,
            MORE,
            Tap(text="About"),
            Tap(text="Frequently asked questions"),
        ],
    },
)
def test_launcher_open_about_faq(ui):
    assert ui.package == APP_LAUNCHER
    assert ui.exists(text="Frequently asked questions"), "the FAQ is not shown"
    assert ui.exists(text="Can I make this app the default launcher?"), "the FAQ is not shown"


@not_applicable(
    field="a removed launcher has no fields left; the grid kept is compared whole",
    multiset=ONE_EACH,
    allowance=NO_ALLOWANCE,
)
@task(
    prompt="Remove Chrome from Launcher",
    app=APP_LAUNCHER,
    name="launcher_remove_app",
    # The first removal explains itself in a dialog (wasRemoveInfoShown), confirmed with OK.
    golden=[LongPress(text="Chrome"), Tap(id=rid(APP_LAUNCHER, "cab_remove")), OK],
    near_miss={
        "Camera removed instead": REMOVE_CAMERA,
        "Camera removed too": [
            LongPress(text="Chrome"),
            Tap(id=rid(APP_LAUNCHER, "cab_remove")),
            OK,
            *REMOVE_CAMERA[:2],
        ],
        labelled("lookalike", "Chrome renamed to nothing: no name in the grid"): [
            LongPress(text="Chrome"),
            Tap(id=rid(APP_LAUNCHER, "cab_edit")),
            LongPress(id=rid(APP_LAUNCHER, "edit_launcher_edittext")),
            Type(" "),
            OK,
        ],
    },
)
def test_launcher_remove_app(chrome_and_camera, device, changes):
    removed = changes.removed(APP_LAUNCHER, launcher(CHROME))
    assert removed["title"] == label(device, CHROME), "Chrome is still in the grid"
    assert launchers(device) == {CAMERA: label(device, CAMERA)}


def rename_launcher(app: str, new: str, select: bool = True) -> list:
    """The field opens holding the old name with the cursor at its end: a long press selects the
    word, and typing replaces it (a tap leaves the cursor there: typing appends)."""
    field = rid(APP_LAUNCHER, "edit_launcher_edittext")
    return [
        LongPress(text=app),
        Tap(id=rid(APP_LAUNCHER, "cab_edit")),
        LongPress(id=field) if select else Tap(id=field),
        Type(new),
        OK,
    ]


NEW_NAMES = ("Browser", "Web", "Internet", "Surf", "MyBrowser", "Net")


@pytest.mark.parametrize("new_name", ["MyChrome"])
@not_applicable(field=GRID, multiset=ONE_EACH, allowance=NO_ALLOWANCE)
@task(
    prompt="Rename Chrome in Launcher to {new_name}",
    app=APP_LAUNCHER,
    name="launcher_rename_app",
    golden=lambda new_name: rename_launcher("Chrome", new_name),
    near_miss={
        labelled("lookalike", "typed after the old name: the field reads it"): lambda new_name: rename_launcher(
            "Chrome", new_name, select=False
        ),
        "Camera renamed": lambda new_name: rename_launcher("Camera", new_name),
        "renamed and names hidden": lambda new_name: [*rename_launcher("Chrome", new_name), HIDE_NAMES],
    },
    variations=lambda rng: {"new_name": rng.choice(NEW_NAMES)},
)
def test_launcher_rename_app(chrome_and_camera, device, changes, new_name):
    # MobileAgentBench looked for a view reading "MyChrome" on the main screen; here Chrome's
    # saved title must be MyChrome (not Camera renamed) and Camera kept.
    assert changes.changed(APP_LAUNCHER, launcher(CHROME)).after["title"] == new_name
    assert launchers(device) == {CAMERA: label(device, CAMERA), CHROME: new_name}


@not_applicable(
    field=SCREEN_ONLY,
    multiset=SCREEN_ONLY,
    allowance=NO_ALLOWANCE,
    lookalike="the search field and the grid it filters are read",
)
@task(
    prompt="Search for Chrome in Launcher",
    app=APP_LAUNCHER,
    name="launcher_search_app",
    golden=[Tap(id=rid(APP_LAUNCHER, "top_toolbar_search")), Type("Chrome")],
    near_miss={
        "Camera searched": [Tap(id=rid(APP_LAUNCHER, "top_toolbar_search")), Type("Camera")],
        "Camera removed first": [*REMOVE_CAMERA, Tap(id=rid(APP_LAUNCHER, "top_toolbar_search")), Type("Chrome")],
    },
)
def test_launcher_search_app(chrome_and_camera, ui):
    query = ui.text_of(rid(APP_LAUNCHER, "top_toolbar_search")) or ""
    # The search is case-insensitive, so "chrome" is the same search; "Chr" is not.
    assert query.strip().lower() == "chrome", f"the search field holds {query!r}"
    labels = [n.text for n in ui.find_all(id=rid(APP_LAUNCHER, "launcher_label"))]
    assert labels == ["Chrome"], f"the grid shows {labels}"


@not_applicable(field=ONE_SETTING, multiset=ONE_SETTING, allowance=NO_ALLOWANCE)
@task(
    prompt="Change Setting Close this app at launching a different one to false",
    app=APP_LAUNCHER,
    name="launcher_setting_close_app_when_launching",
    golden=[MORE, Tap(text="Settings"), Tap(id=rid(APP_LAUNCHER, "settings_close_app_holder"))],
    near_miss={
        labelled("lookalike", "the section label above the row tapped"): [
            MORE,
            Tap(text="Settings"),
            Tap(text="General"),
        ],  # not the row
        "set and names hidden": [
            MORE,
            Tap(text="Settings"),
            Tap(id=rid(APP_LAUNCHER, "settings_close_app_holder")),
            Tap(desc="Back"),
            HIDE_NAMES,
        ],
    },
)
def test_launcher_setting_close_app_when_launching(changes):
    # The saved setting rather than an unchecked box on the settings screen (MobileAgentBench).
    assert changes.value(APP_LAUNCHER, pref("close_app")) is False


def sort_dialog(*taps: str) -> list:
    return [Tap(id=rid(APP_LAUNCHER, "sort")), *(Tap(text=t) for t in taps)]


@not_applicable(field=ONE_SETTING, multiset=ONE_SETTING, allowance=NO_ALLOWANCE, lookalike=STORED)
@task(
    prompt="Sort apps by custom",
    app=APP_LAUNCHER,
    name="launcher_sort_by_custom",
    golden=sort_dialog("Custom", "OK"),
    near_miss={
        "cancelled": sort_dialog("Custom", "Cancel"),
        "sorted and names hidden": [*sort_dialog("Custom", "OK"), HIDE_NAMES],
    },
)
def test_launcher_sort_by_custom(chrome_and_camera, changes):
    # Custom keeps the order the apps were added in (Camera, Chrome), the same as by title, so
    # only the saved sorting can tell.
    assert changes.value(APP_LAUNCHER, pref("sorting")) == SORT_BY_CUSTOM


@not_applicable(field=ONE_SETTING, multiset=ONE_SETTING, allowance=NO_ALLOWANCE, lookalike=STORED)
@task(
    prompt="Sort apps by title descending",
    app=APP_LAUNCHER,
    name="launcher_sort_by_title_desc",
    golden=sort_dialog("Descending", "OK"),
    near_miss={
        "custom instead": sort_dialog("Custom", "OK"),
        "sorted and Camera removed": [*sort_dialog("Descending", "OK"), *REMOVE_CAMERA],
    },
)
def test_launcher_sort_by_title_desc(chrome_and_camera, changes):
    assert changes.value(APP_LAUNCHER, pref("sorting")) == SORT_BY_TITLE | SORT_DESCENDING
