"""Simple Calendar's event types: Settings > Manage event types, the dialog that adds or edits
one, and the editors' type picker.

Learned from Simple-Calendar's ManageEventTypesActivity.kt, ManageEventTypesAdapter.kt,
EditEventTypeDialog.kt, SelectEventTypeDialog.kt, res/layout/activity_manage_event_types.xml,
item_event_type.xml, dialog_event_type.xml, dialog_select_event_type.xml,
radio_button_with_color.xml, res/menu/menu_event_types.xml and cab_event_type.xml:
- the list is sorted by title; a tap edits a type, a long press selects (Edit while one is
  selected, Delete), each row's overflow icon offers Edit and Delete too;
- deleting types that have events asks whether to move them to the regular type or remove
  them; otherwise a confirmation; "Regular event" cannot be deleted;
- the add/edit dialog ("Add a new type" / "Edit type") takes a title (not empty, not another
  type's) and a colour from Simple-Commons' ColorPickerDialog.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from pytest_mobile_agent.virtual.apps.calendar.store import (
    REGULAR_EVENT_TYPE_ID,
    CalendarStore,
    argb_hex,
    displayed_types,
    hex_argb,
)
from pytest_mobile_agent.virtual.apps.commons.action_mode import SelectionActivity, selection_mode_bar
from pytest_mobile_agent.virtual.apps.commons.color_picker import color_picker_dialog
from pytest_mobile_agent.virtual.apps.commons.dialogs import keyboard_dialog
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity
from pytest_mobile_agent.virtual.ui.view import (
    BUTTON,
    FRAME,
    IMAGE,
    LINEAR,
    RADIO,
    RADIO_GROUP,
    RECYCLER,
    RELATIVE,
    View,
)

TITLE_KEY = "type_title"
SWATCH_DP = 34  # color_sample_size
PRIMARY = "#F57C00"  # getProperPrimaryColor: a new type's colour
QUICK_FILTER_DP, QUICK_FILTER_MIN_DP = 48, 88  # quick_filter_height, quick_filter_min_width
DELETE_CHOICES = ("Move affected events into the default event type", "Permanently remove affected events")


def edit_event_type_dialog(activity: Activity, event_type: dict[str, Any] | None, then: Callable[[int], None]):
    """EditEventTypeDialog: the title field (focused, the keyboard up) and the colour; OK
    validates and keeps the dialog open on a toast, Cancel drops it."""
    app = activity.app
    assert isinstance(app, CalendarStore)
    new = event_type is None
    state = {"color": PRIMARY if new else argb_hex(event_type["color"]).upper()}  # type: ignore[index]
    activity.texts[TITLE_KEY] = "" if event_type is None else event_type["title"]
    holder: list = []

    def pick_color() -> None:
        def done(ok: bool, color: str) -> None:
            if ok and color:
                state["color"] = color

        activity.show(color_picker_dialog(activity, state["color"], done))

    def body() -> list[View]:
        title = w.edit(activity, TITLE_KEY, hint="Title", cursor="hairline")
        return [
            View(
                LINEAR,
                id=app.rid("event_type_dialog_holder"),
                padding=8,
                children=[
                    View(LINEAR, id=app.rid("type_title_hint"), children=[title]),
                    w.text(app.rid("type_color_label"), "Color", size=14, padding=4),
                    w.image(
                        app.rid("type_color"),
                        "",
                        "",
                        width=SWATCH_DP,
                        height=SWATCH_DP,
                        color=state["color"],
                        clickable=True,
                        on_click=pick_color,
                    ),
                ],
            )
        ]

    def ok() -> None:
        """eventTypeConfirmed."""
        title = activity.texts.get(TITLE_KEY, "")
        same = app.event_types.with_title(title) if title else None
        if not title:
            activity.toast("Title cannot be empty")
        elif same is not None and (new or same["id"] != event_type["id"]):  # type: ignore[index]
            activity.toast("Type with this title already exists")
        else:
            type_id = app.event_types.save(title, hex_argb(state["color"]), None if new else event_type["id"])  # type: ignore[index]
            activity.texts.pop(TITLE_KEY, None)
            activity.dismiss(holder[0])
            activity.focus, activity.wm.ime_shown = None, False
            then(type_id)

    def cancelled() -> None:
        activity.texts.pop(TITLE_KEY, None)

    dialog = w.alert(
        activity,
        "Add a new type" if new else "Edit type",
        body,
        positive=("OK", lambda: None),
        negative=("Cancel", cancelled),
    )
    build = dialog.build

    def built() -> View:  # OK validates before closing (setOnClickListener on BUTTON_POSITIVE)
        root = build()
        for v in root.walk():
            if v.id == "android:id/button1":
                v.on_click = ok
        return root

    dialog.build = built
    holder.append(dialog)
    w.focus(activity, TITLE_KEY)
    return keyboard_dialog(activity, dialog)


def select_event_type_dialog(activity: Activity, current: int, on_pick: Callable[[int], None]):
    """SelectEventTypeDialog as the editors show it: a radio row per type with its colour, then
    "Add a new type", then "Manage event types"; no buttons."""
    app = activity.app
    assert isinstance(app, CalendarStore)
    holder: list = []

    def picked(type_id: int) -> None:
        activity.dismiss(holder[0])
        on_pick(type_id)

    def add_new() -> None:
        activity.show(edit_event_type_dialog(activity, None, picked))

    def manage() -> None:
        activity.dismiss(holder[0])
        activity.start(ManageEventTypesActivity)

    def row(title: str, checked: bool, color: str, action: Callable[[], None]) -> View:
        radio = View(
            RADIO,
            id=app.rid("dialog_radio_button"),
            text=title,
            checkable=True,
            checked=checked,
            clickable=False,
            kind="radio",
            weight=1,
            height=56,
        )
        children = [radio]
        if color:
            children.append(
                w.image(
                    app.rid("dialog_radio_color"),
                    "",
                    "",
                    width=SWATCH_DP,
                    height=SWATCH_DP,
                    color=color,
                    gravity="center",
                )
            )
        return View(RELATIVE, clickable=True, focusable=True, on_click=action, orientation="h", children=children)

    def body() -> list[View]:
        rows = [
            row(t["title"], t["id"] == current, argb_hex(t["color"]), partial(picked, t["id"]))
            for t in app.event_types.all()
        ]
        rows.append(row("Add a new type", False, "", add_new))
        wrapper = View(
            LINEAR,
            id=app.rid("dialog_wrapper"),
            children=[
                View(RADIO_GROUP, id=app.rid("dialog_radio_group"), padding=8, children=rows),
                View(IMAGE, id=app.rid("dialog_radio_divider"), height=1, kind="divider"),
                w.text(
                    app.rid("dialog_manage_event_types"),
                    "Manage event types",
                    clickable=True,
                    on_click=manage,
                    padding=16,
                ),
            ],
        )
        return [View(w.SCROLL, id=app.rid("dialog_radio_holder"), children=[wrapper])]

    holder.append(w.alert(activity, "", body))
    return holder[0]


class ManageEventTypesActivity(SelectionActivity):
    name = ".activities.ManageEventTypesActivity"
    app: CalendarStore

    def __init__(self, app, extras=None) -> None:
        super().__init__(app, extras)
        self.selected: list[int] = []

    def edit(self, event_type: dict[str, Any] | None) -> None:
        self.show(edit_event_type_dialog(self, event_type, lambda _id: None))

    def tap(self, event_type: dict[str, Any]) -> None:
        if self.selected:
            self.toggle(event_type)
        else:
            self.edit(event_type)

    def toggle(self, event_type: dict[str, Any]) -> None:
        if event_type["id"] in self.selected:
            self.selected.remove(event_type["id"])
        else:
            self.selected.append(event_type["id"])

    def overflow(self, event_type: dict[str, Any]) -> None:
        """The row's three dots: a PopupMenu of cab_event_type (Edit, Delete) for that type."""

        def edit() -> None:
            self.selected = []
            self.edit(event_type)

        def delete() -> None:
            self.selected = [event_type["id"]]
            self.ask_delete()

        self.show(
            w.popup_menu(
                self, [("cab_edit", "Edit", edit), ("cab_delete", "Delete", delete)], title_id="android:id/title"
            )
        )

    def ask_delete(self) -> None:
        """askConfirmDelete: move-or-remove when the types have events, else a confirmation."""
        ids = list(self.selected)
        if self.app.event_types.have_events(ids):
            self.show(w.radio_dialog(self, DELETE_CHOICES, -1, lambda i: self.delete(ids, i == 1)))
        else:
            self.show(
                w.confirm_dialog(
                    self, "Are you sure you want to proceed with the deletion?", lambda: self.delete(ids, True)
                )
            )

    def delete(self, ids: list[int], delete_events: bool) -> None:
        if REGULAR_EVENT_TYPE_ID in ids:
            self.toast("Default event type cannot be deleted")
        self.app.event_types.delete(ids, delete_events)
        self.selected = []

    def edit_selected(self) -> None:
        found = self.app.event_types.get(self.selected[0]) if self.selected else None
        self.selected = []
        if found is not None:
            self.edit(found)

    def content(self) -> View:
        a = self.app
        types = a.event_types.all()
        self.selected = [i for i in self.selected if any(t["id"] == i for t in types)]
        bar = w.toolbar(
            self,
            "manage_event_types_toolbar",
            "Manage event types",
            back=True,
            actions=[("add_event_type", "Add a new type", "add", lambda: self.edit(None))],
        )
        if self.selected:
            mode = selection_mode_bar(
                self,
                set(self.selected),
                len(types),
                [
                    ("cab_edit", "Edit", "edit", self.edit_selected, "always", len(self.selected) == 1),
                    ("cab_delete", "Delete", "delete", self.ask_delete, "always", True),
                ],
                lambda: self.selected.extend(t["id"] for t in types if t["id"] not in self.selected),
            )
            close = mode.children[0]
            close.on_click = self.end_selection
            if len(self.selected) >= len(types):
                mode.children[1].on_click = self.end_selection
            bar = View(w.VIEW_GROUP, orientation="stack", height=64, children=[bar, mode])
        rows = [self.row(t) for t in types]
        body = w.scroll(a.rid("manage_event_types_list"), rows, cls=RECYCLER)
        return w.screen(bar, [body], id=a.rid("manage_event_types_coordinator"))

    def row(self, t: dict[str, Any]) -> View:
        """item_event_type.xml."""
        a = self.app
        holder = View(
            RELATIVE,
            id=a.rid("event_type_holder"),
            orientation="h",
            padding=8,
            children=[
                w.text(a.rid("event_type_title"), t["title"], weight=1, padding=8),
                w.image(
                    a.rid("event_type_color"),
                    "",
                    "",
                    width=SWATCH_DP,
                    height=SWATCH_DP,
                    color=argb_hex(t["color"]),
                    gravity="center",
                ),
                w.icon_button(a.rid("overflow_menu_icon"), "", "more", partial(self.overflow, t), cls=IMAGE),
            ],
        )
        return View(
            FRAME,
            id=a.rid("event_item_frame"),
            key=f"event_type_{t['id']}",
            clickable=True,
            long_clickable=True,
            focusable=True,
            selected=t["id"] in self.selected,
            kind="row",
            on_click=partial(self.tap, t),
            on_long_click=partial(self.toggle, t),
            children=[holder],
        )


def filter_types_dialog(activity: Activity):
    """SelectEventTypesDialog (the menu's "Filter events by type"): a checkbox row per type with
    its colour (`filter_event_type_holder`); OK shows the checked types' events, Cancel nothing."""
    app = activity.app
    assert isinstance(app, CalendarStore)
    checked = set(displayed_types(app))

    def toggle(type_id: int) -> None:
        checked.symmetric_difference_update({type_id})

    def body() -> list[View]:
        rows = [
            View(
                RELATIVE,
                id=app.rid("filter_event_type_holder"),
                clickable=True,
                focusable=True,
                orientation="h",
                on_click=partial(toggle, t["id"]),
                children=[
                    w.checkbox(
                        app.rid("filter_event_type_checkbox"),
                        t["title"],
                        t["id"] in checked,
                        None,
                        clickable=False,
                        weight=1,
                    ),
                    w.image(
                        app.rid("filter_event_type_color"),
                        "",
                        "",
                        width=SWATCH_DP,
                        height=SWATCH_DP,
                        color=argb_hex(t["color"]),
                        gravity="center",
                    ),
                ],
            )
            for t in app.event_types.all()
        ]
        return [View(RECYCLER, id=app.rid("filter_event_types_list"), children=rows)]

    def ok() -> None:
        app.set_pref("display_event_types", sorted(checked))

    return w.alert(activity, "", body, positive=("OK", ok), negative=("Cancel", lambda: None))


def quick_filter(activity: Activity) -> View | None:
    """MainActivity's quick_event_type_filter (QuickFilterEventTypeAdapter), once a second type
    exists: a button per type, sorted by title, its colour as a line under it (6 dp while its
    events show, else 2 dp); a tap shows or hides that type's events. None while it is empty."""
    app = activity.app
    assert isinstance(app, CalendarStore)
    ids = [int(i) for i in app.pref("quick_filter_event_types", [])]
    kinds = [t for t in app.event_types.all() if t["id"] in ids]
    if not kinds:
        return None
    shown = set(displayed_types(app))
    width_dp = activity.wm.width / activity.wm.scale
    item_dp = QUICK_FILTER_MIN_DP if len(kinds) * QUICK_FILTER_MIN_DP > width_dp else width_dp / len(kinds)

    def toggle(type_id: int) -> None:
        now = set(displayed_types(app))
        now.symmetric_difference_update({type_id})
        app.set_pref("display_event_types", sorted(now))
        if not now and not app.pref("was_filtered_out_warning_shown", False):
            activity.toast("You have filtered out all event types")
            app.set_pref("was_filtered_out_warning_shown", True)

    items = []
    for t in kinds:
        active = t["id"] in shown
        line = View(
            IMAGE,
            id=app.rid("quick_filter_event_type_color"),
            height=6 if active else 2,
            color=argb_hex(t["color"]),
            y=QUICK_FILTER_DP - (6 if active else 2),
        )
        # MyButton on no background: the title in the text colour, at half alpha while hidden
        button = View(
            BUTTON,
            id=app.rid("quick_filter_event_type"),
            text=t["title"],
            clickable=True,
            focusable=True,
            on_click=partial(toggle, t["id"]),
            kind="text",
            gravity="center",
            alpha=1.0 if active else 0.5,
            height=QUICK_FILTER_DP,
        )
        items.append(
            View(
                RELATIVE,
                id=app.rid("quick_filter_event_type_holder"),
                orientation="stack",
                width=item_dp,
                height=QUICK_FILTER_DP,
                children=[button, line],
            )
        )
    return View(
        RECYCLER, id=app.rid("quick_event_type_filter"), orientation="h", height=QUICK_FILTER_DP, children=items
    )
