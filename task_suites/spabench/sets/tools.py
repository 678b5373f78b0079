"""File Manager, App Launcher and Calculator sets: files in Download read back from shared
storage, the launcher's grid and the apps' settings from their saved data, the calculator's
display from the screen (its history is the task's own change)."""

from __future__ import annotations

from pytest_mobile_agent import LongPress, Tap, Type
from pytest_mobile_agent.locales import localize
from task_suites.shared.apps import APP_LAUNCHER, CALCULATOR, FILE_MANAGER, rid
from task_suites.shared.media import media_bytes
from task_suites.shared.near_misses import NO_ALLOWANCE, labelled
from task_suites.shared.reading import SORT_BY_TITLE, SORT_DESCENDING, app_data, pref, prefs
from task_suites.shared.seeds import push_files, run_in_app
from task_suites.spabench.levels import Final, Part, SpaSet

ONE_SETTING = "one stored setting a level, read back; any other setting changed fails the task"
STORED = "the stored settings are read, not the screen"

# -- File Manager -------------------------------------------------------------------------------

GRANTS = ("android.permission.MANAGE_EXTERNAL_STORAGE",)
DOWNLOAD_DIR = "/sdcard/Download"
ROOT = "/storage/emulated/0"
STANDARD_FOLDERS = ("Alarms", "DCIM", "Documents", "Download", "Movies", "Music", "Pictures")
FM_OK = Tap(id="android:id/button1")
FAB = Tap(id=rid(FILE_MANAGER, "items_fab"))
RENAME_FIELD = rid(FILE_MANAGER, "rename_item_name")
SORT_BY_SIZE = [Tap(desc="Sort by"), Tap(id=rid(FILE_MANAGER, "sorting_dialog_radio_size")), FM_OK]


def delete_file(name: str) -> list:
    return [LongPress(text=name), Tap(id=rid(FILE_MANAGER, "cab_delete")), Tap(text="Yes")]


def rename_file(old: str, stem: str) -> list:
    """The name field keeps the extension in a field of its own: the stem is replaced."""
    return [LongPress(text=old), Tap(desc="Rename"), LongPress(id=RENAME_FIELD), Type(stem), FM_OK]


def new_item(name: str, file: bool = False) -> list:
    """The + dialog: the name field has the focus, Folder is checked."""
    return [FAB, Type(name), *([Tap(id=rid(FILE_MANAGER, "dialog_radio_file"))] if file else []), FM_OK]


def files_in_download(device, *names: str) -> None:
    device.sh(f"rm -rf {DOWNLOAD_DIR} && cd /sdcard && mkdir -p {' '.join(STANDARD_FOLDERS)}")
    push_files(device, [(f"{DOWNLOAD_DIR}/{name}", media_bytes(name)) for name in names])


def testfile_in_download_open(device) -> None:
    """Testfile.txt and other.txt in Download, which the app shows."""
    files_in_download(device, "Testfile.txt", "other.txt")
    run_in_app(device, FILE_MANAGER, [Tap(text="Download")])


def testfile_in_download(device) -> None:
    files_in_download(device, "testfile.txt", "other.txt")


def report(f: Final) -> None:
    f.changes.moved("files", "Download/Testfile.txt", "Download/report.txt")


def archive_folder(f: Final) -> None:
    out = f.device.sh(f"test -d {DOWNLOAD_DIR}/Archive && echo folder || echo missing").strip()
    assert out == "folder", "no folder Archive in Download"
    assert f.changes.added("files", "Download/Archive/") == "dir"  # exactly it: not Archives/ or Archive.txt too


def other_deleted(f: Final) -> None:
    f.changes.removed("files", "Download/other.txt")


def listed(f: Final) -> list[str]:
    return [n.text for n in f.ui.find_all(id=rid(FILE_MANAGER, "item_name"))]


def in_download(f: Final) -> None:
    crumbs = f.ui.find_all(id=rid(FILE_MANAGER, "breadcrumb_text"))
    assert crumbs and crumbs[-1].text.endswith("Download"), "the Download folder is not shown"
    assert "testfile.txt" in listed(f), f"listed: {listed(f)}"


def sorted_by_size(f: Final) -> None:
    f.changes.allow(FILE_MANAGER, "files/prefs.json:*sorting")  # for all folders, or for this one
    settings = prefs(f.device, FILE_MANAGER)
    sort = settings.get("folder_sorting", {}).get(f"{ROOT}/Download") or settings.get("sorting", {})
    assert sort.get("by") == "size", f"Download is sorted by {sort or 'name'}"
    # the allowance admits a folder's own sorting: only Download's may be one
    others = sorted(set(settings.get("folder_sorting", {})) - {f"{ROOT}/Download"})
    assert not others, f"sorted too, which nobody asked for: {others}"


def testfile_properties(f: Final) -> None:
    rows = {
        label.text: next((c.text for c in label.parent.children if c.id == rid(FILE_MANAGER, "property_value")), "")
        for label in f.ui.find_all(id=rid(FILE_MANAGER, "property_label"))
        if label.parent is not None
    }
    assert f"{ROOT}/Download" in rows.values() and "testfile.txt" in rows.values(), f"properties shown: {rows}"


FILE_MANAGER_SETS = [
    SpaSet(
        name="filemanager_0",
        not_applicable=dict(
            field="files are read by their md5: a content change shows",
            multiset="a name is unique in its folder",
            allowance="the rename and the deletion are exact keys",
            lookalike="files are read on the device, not the listing",
        ),
        app=FILE_MANAGER,
        grants=GRANTS,
        setup=testfile_in_download_open,
        parts=(
            Part(
                "Rename 'Testfile.txt' to 'report.txt'.",
                "将“Testfile.txt”重命名为“report.txt”。",
                rename_file("Testfile.txt", "report"),
                check=report,
                keys=["report.txt"],
                wrong=("a typo", rename_file("Testfile.txt", "reprot")),
            ),
            Part(
                "Then create a folder named 'Archive' here.",
                "然后在这里新建一个名为“Archive”的文件夹。",
                new_item("Archive"),
                check=archive_folder,
                keys=["Archive"],
                wrong=("a file instead", new_item("Archive", file=True)),
                misses=(
                    (
                        labelled("allowance", "and a file Archive.txt"),
                        new_item("Archive") + new_item("Archive.txt", True),
                    ),
                    (labelled("allowance", "and a folder Archives"), [*new_item("Archive"), *new_item("Archives")]),
                ),
            ),
            Part(
                "Finally delete 'other.txt'.",
                "最后删除“other.txt”。",
                delete_file("other.txt"),
                check=other_deleted,
                keys=["Archive", "report.txt"],
                wrong=("report.txt deleted instead", delete_file("report.txt")),
            ),
        ),
        extra=("and a file created", new_item("extra.txt", file=True)),
    ),
    SpaSet(
        name="filemanager_1",
        not_applicable=dict(
            field="the sorting stored is read whole; any other change fails the task",
            multiset="one sorting stored",
            allowance="no allowance but level 2's",
            lookalike="the listing shown must be Download, the properties testfile.txt's",
        ),
        app=FILE_MANAGER,
        grants=GRANTS,
        setup=testfile_in_download,
        parts=(
            Part(
                "Open the Download folder.",
                "打开Download文件夹。",
                [Tap(text="Download")],
                shown=in_download,
                keys=["testfile.txt"],
                wrong=("Documents instead", [Tap(text="Documents")]),
            ),
            Part(
                "Sort its files by size.",
                "将其中的文件按大小排序。",
                SORT_BY_SIZE,
                check=sorted_by_size,
                shown=in_download,
                keys=["testfile.txt"],
                wrong=(
                    "sorted by date",
                    [Tap(desc="Sort by"), Tap(id=rid(FILE_MANAGER, "sorting_dialog_radio_last_modified")), FM_OK],
                ),
                misses=(
                    (
                        labelled("allowance", "sorted, and the main page given a sorting of its own"),
                        [
                            *SORT_BY_SIZE,
                            Tap(text="Internal"),
                            Tap(desc="Sort by"),
                            Tap(id=rid(FILE_MANAGER, "sorting_dialog_radio_name")),
                            Tap(id=rid(FILE_MANAGER, "sorting_dialog_use_for_this_folder")),
                            FM_OK,
                            Tap(text="Download"),
                        ],
                    ),
                ),
            ),
            Part(
                "Then show the properties of 'testfile.txt'.",
                "然后查看“testfile.txt”的属性。",
                [LongPress(text="testfile.txt"), Tap(desc="Properties")],
                shown=testfile_properties,
                keys=["/storage/emulated/0/Download"],
                wrong=(
                    labelled("lookalike", "other.txt's properties"),
                    [LongPress(text="other.txt"), Tap(desc="Properties")],
                ),
            ),
        ),
        extra=("and other.txt deleted", lambda level: [*([FM_OK] if level == 3 else []), *delete_file("other.txt")]),
    ),
]

# -- App Launcher -------------------------------------------------------------------------------

LAUNCHERS = "files/launchers.json"
CHROME, CAMERA = "com.android.chrome", "com.android.camera2"
LAUNCHER_OK = Tap(id="android:id/button1")
LAUNCHER_FAB = Tap(id=rid(APP_LAUNCHER, "fab"))
HIDE_NAMES = Tap(id=rid(APP_LAUNCHER, "toggle_app_name"))
LAUNCHER_SORT = Tap(id=rid(APP_LAUNCHER, "sort"))


def launcher_key(package: str) -> str:
    return f"{LAUNCHERS}[package={package}]"


def grid(device) -> dict[str, str]:
    return {item["package"]: item["title"] for item in app_data(device, APP_LAUNCHER, "launchers") or []}


def chrome_and_camera(device) -> None:
    """MobileAgentBench's setup: +, tick Chrome and Camera, OK."""
    run_in_app(device, APP_LAUNCHER, [LAUNCHER_FAB, Tap(text="Chrome"), Tap(text="Camera"), LAUNCHER_OK])


def rename_app(old: str, new: str) -> list:
    return [
        LongPress(text=old),
        Tap(id=rid(APP_LAUNCHER, "cab_edit")),
        LongPress(id=rid(APP_LAUNCHER, "edit_launcher_edittext")),
        Type(new),
        LAUNCHER_OK,
    ]


def added_apps(f: Final) -> None:
    added = {c.key: c.after["title"] for c in f.changes.where(APP_LAUNCHER, "added", f"{LAUNCHERS}*")}
    camera = localize("Camera", CAMERA, f.device.locale)  # the launcher saves the label it shows
    expected = {launcher_key(CAMERA): camera, launcher_key(CHROME): "MyChrome" if f.level > 1 else "Chrome"}
    assert added == expected, f"added to the grid: {added}"


def sorted_descending(f: Final) -> None:
    sorting = f.changes.value(APP_LAUNCHER, pref("sorting"))
    assert sorting == SORT_BY_TITLE | SORT_DESCENDING, f"sorting flags: {sorting}"


def camera_removed(f: Final) -> None:
    f.changes.removed(APP_LAUNCHER, launcher_key(CAMERA))
    assert grid(f.device) == {CHROME: localize("Chrome", CHROME, f.device.locale)}, f"the grid: {grid(f.device)}"


def names_hidden(f: Final) -> None:
    assert f.changes.value(APP_LAUNCHER, pref("show_app_name")) is False, "app names are still shown"


def keeps_open(f: Final) -> None:
    assert f.changes.value(APP_LAUNCHER, pref("close_app")) is False, "the app still closes at launching another"


LAUNCHER_SETS = [
    SpaSet(
        name="applauncher_0",
        not_applicable=dict(
            field="the grid is read from the app's data by package, title and all",
            multiset="the add dialog lists only apps not in the grid: none is added twice",
            allowance=NO_ALLOWANCE,
            lookalike="the grid and the sorting are read from the app's data",
        ),
        app=APP_LAUNCHER,
        parts=(
            Part(
                "Add Chrome and Camera to the launcher.",
                "把Chrome和Camera添加到启动器。",
                [LAUNCHER_FAB, Tap(text="Chrome"), Tap(text="Camera"), LAUNCHER_OK],
                check=added_apps,
                keys=["Camera", "Chrome"],
                wrong=("Chrome only", [LAUNCHER_FAB, Tap(text="Chrome"), LAUNCHER_OK]),
            ),
            Part(
                "Rename Chrome to 'MyChrome'.",
                "将Chrome重命名为“MyChrome”。",
                rename_app("Chrome", "MyChrome"),
                keys=["MyChrome"],
                wrong=("Camera renamed", rename_app("Camera", "MyChrome")),
            ),
            Part(
                "Then sort the apps by title in descending order.",
                "然后将应用按标题降序排列。",
                [LAUNCHER_SORT, Tap(id=rid(APP_LAUNCHER, "sorting_dialog_radio_descending")), LAUNCHER_OK],
                check=sorted_descending,
                keys=["MyChrome"],
                wrong=(
                    "custom order",
                    [LAUNCHER_SORT, Tap(id=rid(APP_LAUNCHER, "sorting_dialog_radio_custom")), LAUNCHER_OK],
                ),
            ),
        ),
        extra=("and app names hidden", [HIDE_NAMES]),
    ),
    SpaSet(
        name="applauncher_1",
        not_applicable=dict(
            field="the grid and the settings are read from the app's data",
            multiset="the add dialog lists only apps not in the grid: none is added twice",
            allowance=NO_ALLOWANCE,
            lookalike=STORED,
        ),
        app=APP_LAUNCHER,
        setup=chrome_and_camera,
        parts=(
            Part(
                "Remove Camera from the launcher.",
                "从启动器中移除Camera。",
                [LongPress(text="Camera"), Tap(id=rid(APP_LAUNCHER, "cab_remove")), LAUNCHER_OK],
                check=camera_removed,
                wrong=(
                    "Chrome removed instead",
                    [LongPress(text="Chrome"), Tap(id=rid(APP_LAUNCHER, "cab_remove")), LAUNCHER_OK],
                ),
            ),
            Part(
                "Hide the app names.",
                "隐藏应用名称。",
                [HIDE_NAMES],
                check=names_hidden,
                wrong=("hidden and shown again", [HIDE_NAMES, HIDE_NAMES]),
            ),
            Part(
                "Then, in the settings, stop closing this app when launching another one.",
                "然后在设置中关闭“启动其他应用时关闭本应用”。",
                [
                    Tap(desc="More options"),
                    Tap(text="Settings"),
                    Tap(id=rid(APP_LAUNCHER, "settings_close_app_holder")),
                ],
                check=keeps_open,
                keys=["Close this app at launching a different one"],
                wrong=(
                    "colors opened instead",
                    [
                        Tap(desc="More options"),
                        Tap(text="Settings"),
                        Tap(id=rid(APP_LAUNCHER, "settings_color_customization_holder")),
                    ],
                ),
            ),
        ),
        extra=(
            "and Calculator added",
            lambda level: [
                *([Tap(desc="Back")] if level == 3 else []),
                LAUNCHER_FAB,
                Tap(text="Calculator"),
                LAUNCHER_OK,
            ],
        ),
    ),
]

# -- Calculator ---------------------------------------------------------------------------------

KEY_IDS = {
    **{str(d): f"btn_{d}" for d in range(10)},
    "+": "btn_plus",
    "-": "btn_minus",
    "×": "btn_multiply",
    "÷": "btn_divide",
    "=": "btn_equals",
    "C": "btn_clear",
    ".": "btn_decimal",
}
RESULT, FORMULA = rid(CALCULATOR, "result"), rid(CALCULATOR, "formula")
HISTORY = "files/history.json"
VIBRATION_OFF = [Tap(id=rid(CALCULATOR, "settings")), Tap(text="Vibrate on button press"), Tap(desc="Back")]


def keys(sequence: str) -> list:
    """Key presses by the buttons' ids, which read the same in every language."""
    return [Tap(id=rid(CALCULATOR, KEY_IDS[k])) for k in sequence]


def display(formula: str, result: str):
    def shown(f: Final) -> None:
        f.changes.allow(CALCULATOR, HISTORY)  # every computation is kept in the history
        got = (f.ui.text_of(FORMULA), f.ui.text_of(RESULT))
        assert got == (formula, result), f"the display shows {got}, not {(formula, result)}"

    return shown


def converted(top: str, value: str, bottom: str, result: str):
    def shown(f: Final) -> None:
        f.changes.allow(CALCULATOR, pref("converter_*"))  # the converter reopens on the units last used
        got = tuple(
            f.ui.text_of(rid(CALCULATOR, i))
            for i in ("top_unit_name", "top_unit_text", "bottom_unit_name", "bottom_unit_text")
        )
        assert got == (f.ui.tr(top), value, f.ui.tr(bottom), result), f"the converter shows {got}"

    return shown


def length_shown(f: Final) -> None:
    # Every converter has the same two unit rows: its title says which one this is.
    shown = f.ui.exists(id=rid(CALCULATOR, "top_unit_holder")) and f.ui.exists(text=f.ui.tr("Length"))
    assert shown, "the length converter is not shown"
    f.changes.allow(CALCULATOR, pref("converter_*"))


CONVERTER = [Tap(id=rid(CALCULATOR, "unit_converter")), Tap(text="Length")]
MILE_BOTTOM = [Tap(id=rid(CALCULATOR, "bottom_unit_holder")), Tap(text="Mile (mi)")]
SWAP = Tap(id=rid(CALCULATOR, "swap_button"))

CALCULATOR_SETS = [
    SpaSet(
        name="calculator_0",
        not_applicable=dict(
            lookalike="the display must show the formula computed, which a result typed over it leaves empty",
            field="the display is read; a setting changed fails the task",
            multiset="one computation on the display",
            allowance="the history keeps every computation; the display is read",
        ),
        app=CALCULATOR,
        parts=(
            Part(
                "Calculate 12×4.",
                "计算12×4。",
                keys("12×4="),
                shown=display("12×4", "48"),
                keys=["12×4", "48"],
                wrong=("12+4", keys("12+4=")),
                misses=(
                    (
                        labelled("lookalike", "12×4 typed, 48 typed over it"),
                        [*keys("12×4"), *keys("CCCC"), *keys("48")],
                    ),
                ),
            ),
            Part(
                "Then add 7 to the result.",
                "然后将结果加7。",
                keys("+7="),
                shown=display("48+7", "55"),
                keys=["48+7", "55"],
                wrong=("8 added", keys("+8=")),
            ),
            Part(
                "Then divide that by 5.",
                "然后再除以5。",
                keys("÷5="),
                shown=display("55÷5", "11"),
                keys=["55÷5", "11"],
                wrong=("multiplied", keys("×5=")),
            ),
        ),
        extra=("and vibration switched off", VIBRATION_OFF),
    ),
    SpaSet(
        name="calculator_1",
        not_applicable=dict(
            lookalike="the converter's unit names and values are read: another converter shows other names",
            field="the converter's four fields are read; a setting changed fails the task",
            multiset="one conversion on screen",
            allowance="the converter's own last units, which the screen shows",
        ),
        app=CALCULATOR,
        parts=(
            Part(
                "Open the length unit converter.",
                "打开长度单位换算。",
                CONVERTER,
                shown=length_shown,
                keys=["Kilometer"],
                wrong=(labelled("lookalike", "the history instead"), [Tap(id=rid(CALCULATOR, "history"))]),
                misses=((labelled("lookalike", "the area converter"), [CONVERTER[0], Tap(text="Area")]),),
            ),
            Part(
                "Convert 1 mile to kilometers.",
                "将1英里换算成公里。",
                [*MILE_BOTTOM, SWAP, Tap(id=rid(CALCULATOR, "btn_1"))],
                shown=converted("Mile", "1", "Kilometer", "1.609344"),
                keys=["1.609344"],
                wrong=(
                    labelled("lookalike", "the same converter, kilometers to miles"),
                    [*MILE_BOTTOM, Tap(id=rid(CALCULATOR, "btn_1"))],
                ),
            ),
            Part(
                "Then make it 10 miles.",
                "然后改为10英里。",
                [Tap(id=rid(CALCULATOR, "btn_0"))],
                shown=converted("Mile", "10", "Kilometer", "16.09344"),
                keys=["16.09344"],
                wrong=("11 miles", [Tap(id=rid(CALCULATOR, "btn_1"))]),
            ),
        ),
        extra=(
            "and vibration switched off",
            [Tap(desc="Back"), Tap(desc="Back"), *VIBRATION_OFF, *CONVERTER],  # back to the picker, then main
        ),
    ),
]
