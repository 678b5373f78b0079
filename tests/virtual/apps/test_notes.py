"""Simple Notes Pro on the virtual device, driven through uiautomator2 like the benchmark.

Notes are app-private, so every precondition is made through the UI, the way the benchmark's
setups do it (docs/fidelity/notes.md §4); each task's expert flow then runs and is checked on the
hierarchy and on the notes stored in the app's data dir.
"""

from __future__ import annotations

import itertools
import json
import re
import xml.etree.ElementTree as ET

import pytest
from fidelity_docs import fidelity_doc, literal_ids, package_source, screen_ids

PKG = "com.simplemobiletools.notes.pro"
STRIP = "androidx.viewpager.widget.PagerTabStrip"


def rid(name: str) -> str:
    return f"{PKG}:id/{name}"


@pytest.fixture
def notes(u2d, adbd):
    adbd.shell(f"pm clear {PKG}")
    u2d.app_start(PKG)
    return u2d


def stored(adbd) -> list[dict]:
    return json.loads(adbd.shell(f"cat /data/data/{PKG}/files/notes.json"))


def strip_titles(d) -> list[str]:
    """The PagerTabStrip's TextViews (no ids): previous, current, next."""
    root = ET.fromstring(d.dump_hierarchy())
    for node in root.iter("node"):
        if node.get("class") == STRIP:
            return [n.get("text") for n in node if n.get("text")]
    return []


def type_text(adbd, text: str) -> None:
    adbd.shell(["input", "text", text.replace(" ", "%s")])


def overflow(d, title: str) -> None:
    d(description="More options").click()
    d(resourceId=rid("title"), text=title).click()


def new_note(d, adbd, title: str, checklist: bool = False, text: str = "", items: tuple[str, ...] = ()) -> None:
    """The setups' create_note: new_note, label, type, OK, then text or checklist items."""
    d(resourceId=rid("new_note")).click()
    if checklist:
        d(resourceId=rid("type_checklist")).click()
    d(resourceId=rid("locked_note_title")).click()
    type_text(adbd, title)
    d(resourceId="android:id/button1").click()
    if text:
        d(resourceId=rid("text_note_view")).click()
        type_text(adbd, text)
    for item in items:
        d(resourceId=rid("checklist_fab")).click()
        type_text(adbd, item)
        d(resourceId="android:id/button1").click()


def test_fresh_install_general_note_and_menu(notes, adbd):
    d = notes
    assert d(resourceId=rid("main_toolbar")).exists
    assert d(resourceId=rid("text_note_view")).info["focused"]  # "Show keyboard on startup"
    assert d(description="Search").info["resourceName"] == rid("open_search")
    assert d(description="Create a new note").info["resourceName"] == rid("new_note")
    assert not d(description="Open note").exists
    assert not d(resourceId=rid("pager_tab_strip")).exists  # one note: no tab strip
    d(description="More options").click()
    titles = [
        v.get("text") for v in ET.fromstring(d.dump_hierarchy()).iter("node") if v.get("resource-id") == rid("title")
    ]
    assert titles == [
        "Share",
        "Create shortcut",
        "Lock note",
        "Open file",
        "Export as file",
        "Print",
        "Settings",
        "About",
    ]
    assert [n["title"] for n in stored(adbd)] == ["General note"]


def test_note_add_persists_and_pm_clear_resets(notes, adbd):
    d = notes
    d(resourceId=rid("new_note")).click()
    assert d(resourceId=rid("alertTitle")).get_text() == "Add a new note"
    assert d(resourceId=rid("locked_note_title")).info["focused"]
    assert d(resourceId=rid("type_text_note")).info["checked"]
    type_text(adbd, "TODO List")
    d(text="OK").click()
    assert d(className="android.widget.TextView", text="TODO List").exists
    assert strip_titles(d) == ["General note", "TODO List"]
    # A taken title (any case) keeps the dialog open.
    d(resourceId=rid("new_note")).click()
    type_text(adbd, "todo list")
    d(text="OK").click()
    assert d(resourceId=rid("alertTitle")).exists
    d(text="Cancel").click()
    adbd.shell(f"am force-stop {PKG}")
    d.app_start(PKG)
    assert strip_titles(d) == ["General note", "TODO List"]
    assert [(n["title"], n["kind"]) for n in stored(adbd)] == [("General note", "text"), ("TODO List", "text")]
    adbd.shell(f"pm clear {PKG}")
    d.app_start(PKG)
    assert not d(text="TODO List").exists


def test_new_checklist_with_an_item(notes, adbd):
    d = notes
    d(resourceId=rid("new_note")).click()
    d(resourceId=rid("locked_note_title")).click()
    type_text(adbd, "Shopping list")
    d(resourceId=rid("type_checklist")).click()
    d(text="OK").click()
    assert d(className="android.widget.TextView", text="Shopping list").exists
    assert d(resourceId=rid("fragment_placeholder")).get_text() == "The checklist is empty"
    assert not d(description="Search").exists  # search is for text notes only
    d(resourceId=rid("checklist_fab")).click()
    assert d(resourceId=rid("alertTitle")).get_text() == "Add new checklist items"
    type_text(adbd, "Milk")
    d(text="OK").click()
    assert d(resourceId=rid("checklist_title"), text="Milk").exists
    note = stored(adbd)[-1]
    assert note["kind"] == "checklist" and [i["title"] for i in note["value"]] == ["Milk"]
    # The checklist is remembered as the last created type.
    d(resourceId=rid("new_note")).click()
    assert d(resourceId=rid("type_checklist")).info["checked"]


def test_item_checked_and_remove_done_items(notes, adbd):
    d = notes
    new_note(d, adbd, "shopping_list", checklist=True, items=("eggs", "beer", "steak"))
    titles = [n.get("text") for n in ET.fromstring(d.dump_hierarchy()).iter("node")
              if n.get("resource-id") == rid("checklist_title")]  # fmt: skip
    assert titles == ["beer", "eggs", "steak"]  # sorted by title
    d(resourceId=rid("checklist_title"), text="eggs").click()
    assert [i["done"] for i in stored(adbd)[-1]["value"]] == [True, False, False]
    adbd.shell(f"am force-stop {PKG}")
    d.app_start(PKG)
    overflow(d, "Remove done items")
    assert not d(text="eggs").exists and d(text="beer").exists


def test_open_note_from_the_tab_strip_and_the_open_note_dialog(notes, adbd):
    d = notes
    new_note(d, adbd, "meeting", text="9pm May 5th 2024")
    new_note(d, adbd, "Charles's secrets", text="I love you")
    new_note(d, adbd, "to_do_list", text="Complete the task")
    assert strip_titles(d) == ["meeting", "to_do_list"]
    d(className="android.widget.TextView", text="meeting").click()
    assert d(resourceId=rid("text_note_view")).get_text() == "9pm May 5th 2024"
    assert strip_titles(d) == ["General note", "meeting", "to_do_list"]
    d(resourceId=rid("open_note")).click()
    assert d(resourceId=rid("alertTitle")).get_text() == "Open note"
    d(resourceId=rid("open_note_item_title"), text="Charles's secrets").click()
    assert d(resourceId=rid("text_note_view")).get_text() == "I love you"


def test_open_about(notes, adbd):
    d = notes
    overflow(d, "About")
    assert "AboutActivity" in adbd.shell("dumpsys activity top")
    assert d(text="Version 6.17.0 Pro").exists
    d(text="Frequently asked questions").click()
    assert d(text="How can I change the widgets color?").exists


def test_rename_current_note(notes, adbd):
    d = notes
    new_note(d, adbd, "unfinished_task", text="Undo")
    overflow(d, "Rename note")
    assert d(resourceId=rid("alertTitle")).get_text() == "Rename note"
    field = d(resourceId=rid("locked_note_title"))
    assert field.get_text() == "unfinished_task"
    field.clear_text()
    type_text(adbd, "finished_task")
    d(text="OK").click()
    assert d(resourceId=rid("text_note_view")).get_text() == "Undo"
    assert strip_titles(d) == ["finished_task", "General note"]  # alphabetical: it is first now
    assert [n["title"] for n in stored(adbd)] == ["General note", "finished_task"]


def test_long_press_selects_the_title_and_typing_replaces_it(notes, adbd):
    """Android selects the word under a long press; the title is one word, so all of it."""
    d = notes
    new_note(d, adbd, "unfinished_task", text="Undo")
    overflow(d, "Rename note")
    d(resourceId=rid("locked_note_title")).long_click()
    type_text(adbd, "finished_task")
    assert d(resourceId=rid("locked_note_title")).get_text() == "finished_task"
    d(text="OK").click()
    assert [n["title"] for n in stored(adbd)] == ["General note", "finished_task"]


@pytest.mark.parametrize("taps", ["one command", "two commands"])
def test_a_double_tap_selects_the_title_two_separate_taps_do_not(notes, adbd, vdevice, taps):
    """The harness's DoubleTap sends its taps in one shell command: the field selects the word
    under the finger and typing replaces it. The same two taps as two commands (two steps of an
    agent) only place the cursor: typing appends."""
    from pytest_mobile_agent.actions import DoubleTap, Tap
    from pytest_mobile_agent.device.android import AndroidDevice

    d = notes
    new_note(d, adbd, "unfinished_task", text="Undo")
    overflow(d, "Rename note")
    b = d(resourceId=rid("locked_note_title")).info["bounds"]
    x, y = (b["left"] + b["right"]) // 2, (b["top"] + b["bottom"]) // 2
    device = AndroidDevice(vdevice.serial)
    for action in [DoubleTap(x, y)] if taps == "one command" else [Tap(x, y), Tap(x, y)]:
        device.execute(action, None)
    type_text(adbd, "done")
    title = d(resourceId=rid("locked_note_title")).get_text()
    assert title == ("done" if taps == "one command" else "unfinished_taskdone")


@pytest.mark.parametrize("clear, expected", [(True, "finished"), (False, "unfinished_taskfinished")])
def test_a_type_that_clears_replaces_what_the_field_holds(notes, adbd, vdevice, clear, expected):
    """`Type(text, clear=True)` (AutoGLM's Type) empties the focused field first, found in the
    screen's dump; a plain Type adds to it."""
    from pytest_mobile_agent.actions import Tap, Type
    from pytest_mobile_agent.device.android import AndroidDevice
    from pytest_mobile_agent.device.ui_tree import UiTree

    d = notes
    new_note(d, adbd, "unfinished_task", text="Undo")
    overflow(d, "Rename note")
    device = AndroidDevice(vdevice.serial)
    field = UiTree(d.dump_hierarchy()).find(id=rid("locked_note_title"))  # (the u2 server holds UiAutomation)
    assert field is not None
    device.execute(Tap(*field.center), None)  # focused
    device.execute(Type("finished", clear=clear), UiTree(d.dump_hierarchy()))
    assert d(resourceId=rid("locked_note_title")).get_text() == expected


def test_search_in_a_note(notes, adbd):
    d = notes
    new_note(d, adbd, "Charles's secrets", text="The secret is I love you")
    d(resourceId=rid("open_search")).click()
    assert d(resourceId=rid("search_query")).info["focused"]
    type_text(adbd, "secret")
    assert d(resourceId=rid("search_query")).get_text() == "secret"
    assert "secret" in d(resourceId=rid("text_note_view")).get_text()
    for name, desc in (("search_previous", "Previous"), ("search_next", "Next"), ("search_clear", "Close")):
        assert d(resourceId=rid(name)).info["contentDescription"] == desc
    d(resourceId=rid("search_clear")).click()
    assert not d(resourceId=rid("search_wrapper")).exists


def test_delete_two_notes(notes, adbd):
    d = notes
    for title in ("work_list", "to_do_list", "meeting"):
        new_note(d, adbd, title)
    overflow(d, "Delete note")
    assert d(resourceId=rid("delete_note_description")).get_text() == 'Are you sure you want to delete note "meeting"?'
    d(text="Delete").click()
    assert strip_titles(d) == ["General note", "to_do_list"]
    d(className="android.widget.TextView", text="to_do_list").click()
    overflow(d, "Delete note")
    d(text="Delete").click()
    assert not d(text="to_do_list").exists and not d(text="meeting").exists
    assert d(text="work_list").exists
    assert [n["title"] for n in stored(adbd)] == ["General note", "work_list"]


def enter_pin(d, pin: str) -> None:
    for digit in pin:
        d(resourceId=rid(f"pin_{digit}")).click()
    d(resourceId=rid("pin_ok")).click()


def test_lock_with_pin_then_unlock(notes, adbd):
    d = notes
    new_note(d, adbd, "password_list", checklist=True, items=("unique2580",))
    overflow(d, "Lock note")
    assert d(resourceId=rid("message")).get_text().startswith("WARNING: If you forget the notes' password")
    d(resourceId="android:id/button1").click()
    assert d(resourceId=rid("dialog_tab_layout")).exists
    assert d(resourceId=rid("pattern_lock_title")).get_text() == "Insert pattern"
    d(text="PIN").click()
    enter_pin(d, "2580")
    assert d(resourceId=rid("pin_lock_title")).get_text() == "Repeat PIN"
    enter_pin(d, "2580")
    assert not d(resourceId=rid("pin_lock_holder")).exists
    assert stored(adbd)[-1]["hash"]
    d.press("home")
    adbd.shell(["monkey", "-p", PKG, "-c", "android.intent.category.LAUNCHER", "1"])
    assert d(resourceId=rid("note_locked_label")).get_text() == "The notes' content is locked."
    assert not d(text="unique2580").exists and not d(resourceId=rid("checklist_fab")).exists
    # The task: Show content, 2 5 8 0, OK.
    d(resourceId=rid("note_locked_show")).click()
    assert not d(resourceId=rid("dialog_tab_layout")).exists  # checking shows only the PIN page
    enter_pin(d, "1111")
    assert d(resourceId=rid("pin_lock_title")).get_text() == "Wrong PIN"
    enter_pin(d, "2580")
    assert d(text="unique2580").exists
    overflow(d, "Unlock note")
    enter_pin(d, "2580")
    assert stored(adbd)[-1]["hash"] == ""


def test_settings_rows(notes, adbd):
    d = notes
    overflow(d, "Settings")
    assert "SettingsActivity" in adbd.shell("dumpsys activity top")
    box = d(resourceId=rid("settings_show_word_count"))
    assert not box.info["checked"] and d(resourceId=rid("settings_enable_line_wrap")).info["checked"]
    d(resourceId=rid("settings_show_word_count_holder")).click()
    assert box.info["checked"]
    assert d(resourceId=rid("settings_font_size")).get_text() == "100%"
    d.press("back")
    assert d(resourceId=rid("notes_counter")).exists


def test_fidelity_doc_lists_every_id_of_the_model(tmp_path):
    """Every id the modules name literally and every id on the activities' screens is in the doc."""
    doc = fidelity_doc("notes")
    names = literal_ids(package_source("notes")) | screen_ids(tmp_path, PKG)
    missing = sorted(n for n in names if f"`{n}`" not in doc and not re.search(rf"`[^`]*\b{n}\b", doc))
    assert not missing, f"ids missing from docs/fidelity/notes.md: {missing}"


def longest_run(flags: list[bool]) -> int:
    return max((sum(1 for _ in group) for flag, group in itertools.groupby(flags) if flag), default=0)


def test_a_done_checklist_item_is_struck_through_and_faded_with_a_green_check(notes, adbd):
    """ChecklistAdapter's look: a done item's title struck through at alpha 0.4 beside a green
    check; an open one in full ink beside a red cross. Not a selected-looking dark row."""
    import io

    from PIL import Image

    d = notes
    new_note(d, adbd, "shopping_list", checklist=True, items=("beer", "eggs"))
    d(resourceId=rid("checklist_title"), text="eggs").click()
    screen = Image.open(io.BytesIO(adbd.shell("screencap -p", encoding=None))).convert("RGB")

    def looks(text: str) -> tuple[set, tuple[int, int, int], int, tuple[int, int, int]]:
        title = d(resourceId=rid("checklist_title"), text=text).info["bounds"]
        row = d(resourceId=rid("checklist_title"), text=text).sibling(resourceId=rid("checklist_image")).info["bounds"]
        crop = screen.crop((title["left"], title["top"], title["right"], title["bottom"]))
        counts = crop.getcolors(100_000)
        paper = max(counts)[1]  # the background the title sits on
        inks = {c for _, c in counts if c != paper}
        icon = screen.crop((row["left"], row["top"], row["right"], row["bottom"]))
        strongest = min((c for _, c in icon.getcolors(100_000)), key=lambda c: min(c))
        # The longest run of ink along one pixel row of the title: a strike line spans the word.
        runs = [longest_run([crop.getpixel((x, y)) != paper for x in range(crop.width)]) for y in range(crop.height)]
        return inks, strongest, max(runs), paper

    done_inks, done_icon, done_run, done_paper = looks("eggs")
    open_inks, open_icon, open_run, open_paper = looks("beer")
    assert done_paper == open_paper == (255, 255, 255)  # no dark "selected" row behind a done item
    assert min(map(sum, done_inks)) > min(map(sum, open_inks)) + 200  # faded: no dark pixel at all
    assert done_run > 2 * open_run  # one line through the whole word, longer than any stroke of a glyph
    assert done_icon[1] > done_icon[0] and open_icon[0] > open_icon[1]  # green check, red cross
