"""Reordering by drag handle (ItemTouchHelper.startDrag on the handle's ACTION_DOWN): App
Launcher's "Change order" shows the handles, and a swipe from one drags its launcher to where
the finger lifts. In-process device."""

from __future__ import annotations

from inproc_shell import sh

from pytest_mobile_agent.virtual.apps.applauncher.store import SORT_BY_CUSTOM
from pytest_mobile_agent.virtual.system.device import Device
from pytest_mobile_agent.virtual.ui.view import View

PKG = "com.simplemobiletools.applauncher"
APPS = ("com.simplemobiletools.calculator", "com.simplemobiletools.notes.pro", "com.simplemobiletools.gallery.pro")


def views(dev: Device, **match: str) -> list[View]:
    found = []
    for win in dev.wm.frame().windows:
        for v in win.root.walk():
            if v.shown and all(getattr(v, k) == (PKG + ":id/" + s if k == "id" else s) for k, s in match.items()):
                found.append(v)
    return found


def centre(v: View) -> tuple[int, int]:
    l, t, r, b = v.visible_bounds
    return (l + r) // 2, (t + b) // 2


def grid(dev: Device) -> list[str]:
    return [v.key for v in views(dev, id="launcher_holder")]


def test_a_launcher_dragged_by_its_handle_takes_the_place_it_is_dropped_on(device):
    app = device.packages.app(PKG)
    app.set_apps([device.packages.app(p) for p in APPS])  # type: ignore[attr-defined]
    sh(device, f"am start -n {PKG}/.activities.MainActivity")
    before = grid(device)
    assert len(before) == 3 and not views(device, id="launcher_drag_handle")
    sh(device, "input swipe {0} {1} {0} {1} 600".format(*centre(views(device, id="launcher_holder")[0])))
    more = views(device, id="cab_change_order") or views(device, desc="More options")
    device.wm.tap(*centre(more[0]))
    if not views(device, id="cab_change_order"):
        device.wm.tap(*centre(views(device, text="Change order")[0]))
    else:
        device.wm.tap(*centre(views(device, id="cab_change_order")[0]))
    holders = views(device, id="launcher_holder")
    handles = {h.key: c for h in holders for c in h.walk() if c.id.endswith("launcher_drag_handle") and c.shown}
    assert len(handles) >= 2  # a label on two lines pushes its handle out of the cell (not modelled)
    first, last = [k for k in before if k in handles][:2]
    (x1, y1), (x2, y2) = centre(handles[first]), centre(holders[before.index(last)])
    sh(device, f"input swipe {x1} {y1} {x2} {y2} 300")  # no long press: the handle drags at once
    after = [k for k in before if k != first]
    after.insert(before.index(last), first)
    assert grid(device) == after != before
    assert app.pref("sorting", 0) & SORT_BY_CUSTOM  # type: ignore[attr-defined]
    # A quick swipe from the item's icon (not its handle) drags nothing.
    icon = next(c for c in views(device, id="launcher_holder")[0].walk() if c.id.endswith("launcher_icon"))
    (x1, y1), (x2, y2) = centre(icon), centre(views(device, id="launcher_holder")[2])
    sh(device, f"input swipe {x1} {y1} {x2} {y2} 300")
    assert grid(device) == after


NOTES = "com.simplemobiletools.notes.pro"


def note_views(dev: Device, name: str) -> list[View]:
    return [v for v in dev.wm.frame().windows[0].root.walk() if v.shown and v.id == f"{NOTES}:id/{name}"]


def item_rows(dev: Device) -> list[View]:
    """The checklist's rows (the page holding them has their id too)."""
    return [v for v in note_views(dev, "checklist_holder") if v.key.isdigit()]


def titles(dev: Device) -> list[str]:
    return [v.text for v in note_views(dev, "checklist_title")]


def test_a_notes_checklist_item_dragged_by_its_handle_and_moved_to_the_top(device):
    app = device.packages.app(NOTES)
    note = app.add("Groceries", "checklist")  # type: ignore[attr-defined]
    items = [{"id": i + 1, "title": t, "done": False} for i, t in enumerate(("Apples", "Bread", "Cheese", "Dates"))]
    app.update(note["id"], value=items)  # type: ignore[attr-defined]
    sh(device, f"am start -n {NOTES}/.activities.MainActivity")
    assert titles(device) == ["Apples", "Bread", "Cheese", "Dates"] and not note_views(device, "checklist_drag_handle")
    sh(device, "input swipe {0} {1} {0} {1} 600".format(*centre(item_rows(device)[1])))  # a long press: the action mode
    assert [v.desc for v in note_views(device, "action_mode_bar")[0].walk() if v.desc][1:] == [
        "Move to top", "Move to bottom", "Rename", "Delete",
    ]  # fmt: skip
    handles = note_views(device, "checklist_drag_handle")
    (x1, y1), (x2, y2) = centre(handles[0]), centre(item_rows(device)[2])
    sh(device, f"input swipe {x1} {y1} {x2} {y2} 300")
    assert titles(device) == ["Bread", "Cheese", "Apples", "Dates"]
    assert app.pref("checklist_sorting", None) == ["custom", False]  # type: ignore[attr-defined]
    device.wm.tap(*centre(item_rows(device)[3]))  # Dates joins the selection
    device.wm.tap(*centre(note_views(device, "cab_move_to_top")[0]))
    assert titles(device) == ["Bread", "Dates", "Cheese", "Apples"]
    device.wm.tap(*centre(note_views(device, "cab_delete")[0]))
    assert titles(device) == ["Cheese", "Apples"] and not note_views(device, "action_mode_bar")
    stored = [it["title"] for it in app.current()["value"]]  # type: ignore[attr-defined]
    assert stored == ["Cheese", "Apples"]


def test_a_notes_checklist_item_renamed_from_the_action_mode(device):
    app = device.packages.app(NOTES)
    note = app.add("Groceries", "checklist")  # type: ignore[attr-defined]
    app.update(note["id"], value=[{"id": 1, "title": "Apples", "done": False}])  # type: ignore[attr-defined]
    sh(device, f"am start -n {NOTES}/.activities.MainActivity")
    sh(device, "input swipe {0} {1} {0} {1} 600".format(*centre(item_rows(device)[0])))
    device.wm.tap(*centre(note_views(device, "cab_rename")[0]))
    field = next(v for v in device.wm.frame().windows[-2].root.walk() if v.id.endswith(":id/checklist_item_title"))
    assert field.text == "Apples" and field.focused
    sh(device, "input keyevent MOVE_END DEL DEL DEL DEL DEL DEL; input text Pears")
    ok = next(v for v in device.wm.frame().windows[-2].root.walk() if v.id == "android:id/button1")
    device.wm.tap(*centre(ok))
    assert titles(device) == ["Pears"] and not note_views(device, "action_mode_bar")
    sh(device, "input swipe {0} {1} {0} {1} 600".format(*centre(item_rows(device)[0])))
    sh(device, "input keyevent BACK")  # BACK ends the action mode, and no more
    assert not note_views(device, "action_mode_bar") and titles(device) == ["Pears"]
