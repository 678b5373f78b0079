"""The dialogs Simple Contacts' screens share: the visible fields, checkbox lists and the contact
picker (Simple-Commons' and Simple-Contacts' dialogs)."""

from __future__ import annotations

import calendar
from collections.abc import Callable
from datetime import date
from functools import partial
from typing import Any

from pytest_mobile_agent.virtual.apps.commons.dates import java_date
from pytest_mobile_agent.virtual.apps.commons.dialogs import validating_dialog
from pytest_mobile_agent.virtual.apps.contacts.store import RECYCLER, ContactsStore, display_name, sort_contacts
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, App
from pytest_mobile_agent.virtual.ui.view import CHECKBOX, LINEAR, RELATIVE, VIEW, View

# -- shown contact fields (BaseConfig.showContactFields) --------------------------------------
FIELDS = (
    ("prefix", "Prefix", False),
    ("first_name", "First name", True),
    ("middle_name", "Middle name", False),
    ("surname", "Surname", True),
    ("suffix", "Suffix", False),
    ("nickname", "Nickname", False),
    ("phone_numbers", "Phone numbers", True),
    ("emails", "Emails", True),
    ("addresses", "Addresses", True),
    ("ims", "Instant messaging (IM)", False),
    ("events", "Events (birthdays, anniversaries)", True),
    ("notes", "Notes", True),
    ("ringtone", "Ringtone", False),
    ("organization", "Organization", False),
    ("websites", "Websites", False),
    ("groups", "Groups", True),
    ("contact_source", "Contact source", True),
)
NAME_FIELDS = (
    ("prefix", "prefix", "Prefix"),
    ("first_name", "first", "First name"),
    ("middle_name", "middle", "Middle name"),
    ("surname", "surname", "Surname"),
    ("suffix", "suffix", "Suffix"),
    ("nickname", "nickname", "Nickname"),
)
NO_APP = "No valid app found"


def shown_fields(app: App) -> set[str]:
    return set(app.pref("shown_fields", [key for key, _, on in FIELDS if on]))


def checks_dialog(
    activity: Activity,
    prefix: str,
    items: list[tuple[str, str, str]],
    chosen: set[str],
    on_ok: Callable[[set[str]], None],
):
    """A title-less dialog of checkboxes in a ScrollView (ManageVisibleFields/TabsDialog)."""
    app, state = activity.app, set(chosen)

    def body() -> list[View]:
        boxes = [
            w.checkbox(app.rid(rid), label, key in state, partial(state.symmetric_difference_update, {key}))
            for key, rid, label in items
        ]
        holder = View(LINEAR, id=app.rid(f"{prefix}_holder"), children=boxes)
        return [w.scroll(app.rid(f"{prefix}_scroll_view"), [holder], cls=w.SCROLL)]  # buttons stay on screen

    return w.alert(activity, "", body, positive=("OK", lambda: on_ok(state)), negative=("Cancel", lambda: None))


def manage_fields_dialog(activity: Activity):
    app = activity.app
    items = [
        (key, "manage_ringtone" if key == "ringtone" else f"manage_visible_fields_{key}", label)
        for key, label, _ in FIELDS
    ]
    return checks_dialog(
        activity, "manage_visible_fields", items, shown_fields(app), lambda s: app.set_pref("shown_fields", sorted(s))
    )


def select_contacts_dialog(
    activity: Activity,
    chosen: set[int] | None = None,
    on_ok: Callable[[list[int], list[int]], None] | None = None,
):
    """SelectContactsDialog: every contact with a checkbox. For "Add favorites" the starred ones
    are ticked and OK stars what is ticked; otherwise `chosen` are ticked and OK hands `on_ok`
    the ids added and removed (a group's members)."""
    app = activity.app
    store = ContactsStore(app)
    contacts = sort_contacts(app, store.all())
    before = {c["id"] for c in contacts if c["starred"]} if chosen is None else set(chosen)
    state = set(before)

    def body() -> list[View]:
        rows = [
            View(
                w.FRAME,
                id=app.rid("contact_frame"),
                clickable=True,
                kind="row",
                height=56,
                on_click=partial(state.symmetric_difference_update, {c["id"]}),
                children=[
                    View(
                        RELATIVE,
                        id=app.rid("contact_holder"),
                        orientation="h",
                        children=[
                            w.text(app.rid("contact_name"), display_name(app, c), weight=1, padding=8),
                            View(
                                CHECKBOX,
                                id=app.rid("contact_checkbox"),
                                checkable=True,
                                checked=c["id"] in state,
                                kind="checkbox",
                                width=48,
                            ),
                        ],
                    )
                ],
            )
            for c in contacts
        ]
        children = [w.scroll(app.rid("select_contact_list"), rows, cls=RECYCLER)]
        if not contacts:
            children.append(w.text(app.rid("select_contact_placeholder"), "No contacts found", padding=16))
        return [View(RELATIVE, id=app.rid("select_contact_holder"), children=children)]

    def ok() -> None:
        added = [c["id"] for c in contacts if c["id"] in state and c["id"] not in before]
        removed = [c["id"] for c in contacts if c["id"] in before and c["id"] not in state]
        if on_ok is not None:
            on_ok(added, removed)
        else:
            store.set_starred(added, True)
            store.set_starred(removed, False)

    return w.alert(activity, "", body, positive=("OK", ok), negative=("Cancel", lambda: None))


# -- groups ---------------------------------------------------------------------------------
def group_title_dialog(activity: Activity, *, rename: dict[str, Any] | None, on_done: Callable[[int], None]):
    """CreateNewGroupDialog (dialog_create_new_group.xml) or, with `rename`, RenameGroupDialog
    (dialog_rename_group.xml): a "Title" field, the keyboard up; an empty title toasts "Empty name"."""
    app = activity.app
    ids = (
        ("rename_group_holder", "rename_group_hint", "rename_group_title")
        if rename
        else (
            "dialog_holder",
            "group_name_hint",
            "group_name",
        )
    )
    key = ids[2]
    activity.texts[key] = rename["title"] if rename else ""
    w.focus(activity, key)

    def ok() -> bool:
        title = activity.texts.get(key, "").strip()
        if not title:
            activity.toast("Empty name")
            return False
        store = ContactsStore(app)
        if rename:
            store.rename_group(rename["id"], title)
            gid = rename["id"]
        else:
            gid = store.create_group(title)
        activity.dismiss()  # the dialog, before what on_done shows
        on_done(gid)
        return False

    def body() -> list[View]:
        field = View(LINEAR, id=app.rid(ids[1]), children=[w.edit(activity, key, hint="Title")])
        return [View(LINEAR, id=app.rid(ids[0]), padding=8, children=[field])]

    return validating_dialog(activity, "Rename" if rename else "Create a new group", body, ok)


def add_to_group_dialog(activity: Activity, contact_ids: list[int], on_done: Callable[[], None]):
    """ContactsAdapter.addToGroup: a RadioGroupDialog of the groups (as stored: the provider's,
    then the app's) and "Create a new group"; the pick adds the contacts to it."""
    store = ContactsStore(activity.app)
    groups = sorted(store.groups(), key=lambda g: (g["local"], g["id"]))

    def add(gid: int) -> None:
        store.set_members(gid, contact_ids, [])
        on_done()

    def pick(i: int) -> None:
        if i < len(groups):
            add(groups[i]["id"])
        else:
            activity.show(group_title_dialog(activity, rename=None, on_done=add))

    return w.radio_dialog(activity, [g["title"] for g in groups] + ["Create a new group"], -1, pick)


def select_groups_dialog(activity: Activity, chosen: list[int], on_ok: Callable[[list[int]], None]):
    """SelectGroupsDialog (dialog_select_groups.xml): a checkbox per group by title, then
    "Create a new group", which adds a ticked box for the new group."""
    app = activity.app
    store = ContactsStore(app)
    state = set(chosen)

    def create() -> None:
        activity.show(group_title_dialog(activity, rename=None, on_done=state.add))

    def body() -> list[View]:
        groups = store.groups()
        boxes: list[View] = [
            View(
                RELATIVE,
                id=app.rid("item_checkbox_holder"),
                clickable=True,
                on_click=partial(state.symmetric_difference_update, {g["id"]}),
                children=[w.checkbox(app.rid("item_checkbox"), g["title"], g["id"] in state, None, clickable=False)],
            )
            for g in groups
        ]
        boxes.append(
            w.text(app.rid("item_textview"), "Create a new group", clickable=True, padding=12, on_click=create)
        )
        holder = View(LINEAR, id=app.rid("dialog_groups_holder"), children=boxes)
        return [w.scroll(app.rid("dialog_radio_holder"), [holder], cls=w.SCROLL)]

    def ok() -> None:
        known = {g["id"] for g in store.groups()}
        on_ok(sorted(g for g in state if g in known))

    return w.alert(activity, "", body, positive=("OK", ok), negative=("Cancel", lambda: None))


# -- events ---------------------------------------------------------------------------------
MONTHS = calendar.month_name  # January..December, [1] to [12]: the model's English names
YEARS = range(1900, 2101)  # DatePicker's default min and max dates
YEAR_ROW_DP = 48


def event_text(tag: str, today: date) -> str:
    """getDateTimeFromDateString(showYearsSince = true) in en-US: "May 15, 1990 (36)", or
    "May 15" for a date without its year ("--MM-dd")."""
    if tag.startswith("--"):
        return f"{MONTHS[int(tag[2:4])][:3]} {int(tag[5:7])}"
    y, m, d = (int(p) for p in tag.split("-"))
    age = today.year - y - ((today.month, today.day) < (m, d))
    return f"{MONTHS[m][:3]} {d}, {y} ({age})"


def date_picker_dialog(activity: Activity, tag: str, today: date, on_ok: Callable[[str], None]):
    """MyDatePickerDialog (dialog_date_picker.xml): the platform DatePicker in its Material
    calendar mode (a header with the year and the date; a month of days with previous/next
    month; tapping the year opens the year list) over the "Hide year" checkbox. OK gives
    "yyyy-MM-dd", or "--MM-dd" with Hide year; it opens on `tag`, else on today."""
    app = activity.app
    if tag.startswith("--"):
        start = date(today.year, int(tag[2:4]), int(tag[5:7]))
    elif tag:
        start = date(*(int(p) for p in tag.split("-")))
    else:
        start = today
    state: dict[str, Any] = {
        "day": start,
        "month": (start.year, start.month),
        "years": False,
        "opened": 0,
        "hide": tag[:2] == "--",
    }

    def choose(day: date) -> None:
        state.update(day=day, month=(day.year, day.month))

    def turn(step: int) -> None:
        y, m = state["month"]
        m += step
        state["month"] = (y + (m - 1) // 12, (m - 1) % 12 + 1)

    def pick_year(year: int) -> None:
        day = state["day"]
        choose(date(year, day.month, min(day.day, calendar.monthrange(year, day.month)[1])))
        state["years"] = False

    def month_view() -> View:
        y, m = state["month"]
        first, days = calendar.monthrange(y, m)
        cells: list[View] = [View(VIEW) for _ in range((first + 1) % 7)]  # weeks start on Sunday (en-US)
        for d in range(1, days + 1):
            day = date(y, m, d)
            cells.append(
                View(
                    VIEW,
                    text=str(d),
                    desc=f"{d:02d} {MONTHS[m]} {y}",
                    clickable=True,
                    selected=day == state["day"],
                    color="primary" if day == state["day"] else "",
                    kind="text",
                    gravity="center",
                    text_size=14,
                    height=40,
                    on_click=partial(choose, day),
                )
            )
        cells += [View(VIEW) for _ in range(-len(cells) % 7)]
        for c in cells:
            c.weight = 1
        weeks = [View(LINEAR, orientation="h", children=cells[i : i + 7]) for i in range(0, len(cells), 7)]
        nav = View(
            LINEAR,
            orientation="h",
            children=[
                w.icon_button("android:id/prev", "Previous month", "chevron_left", partial(turn, -1)),
                w.text("", f"{MONTHS[m]} {y}", size=14, bold=True, gravity="center", weight=1, padding=12),
                w.icon_button("android:id/next", "Next month", "chevron_right", partial(turn, 1)),
            ],
        )
        pager = View(LINEAR, id="android:id/day_picker_view_pager", children=weeks)
        return View(LINEAR, id="android:id/date_picker_day_picker", children=[nav, pager])

    def year_view() -> View:
        rows = [
            w.text(
                "android:id/text1",
                str(y),
                clickable=True,
                gravity="center",
                size=20 if y == state["day"].year else 16,
                bold=y == state["day"].year,
                height=YEAR_ROW_DP,
                on_click=partial(pick_year, y),
            )
            for y in YEARS
        ]
        listing = w.scroll("android:id/date_picker_year_picker", rows, height=300)
        # YearPickerView opens with the chosen year in the middle; offsets are in px
        scale = float(getattr(activity.wm, "scale", 1.0))
        listing.scroll_y = round(max(0, state["day"].year - YEARS.start - 3) * YEAR_ROW_DP * scale)
        listing.key = f"years_{state['opened']}"  # each opening starts there, not where the last one was left
        return listing

    def body() -> list[View]:
        day: date = state["day"]
        header = View(
            LINEAR,
            id="android:id/date_picker_header",
            color="primary",
            padding=12,
            children=[
                w.text(
                    "android:id/date_picker_header_year",
                    str(day.year),
                    clickable=True,
                    size=16,
                    on_click=lambda: state.update(years=True, opened=state["opened"] + 1),
                ),
                w.text("android:id/date_picker_header_date", java_date("EEE, MMM d", day), size=32, bold=True),
            ],
        )
        picker = View(
            "android.widget.DatePicker",
            id=app.rid("date_picker"),
            children=[header, year_view() if state["years"] else month_view()],
        )
        hide = w.checkbox(
            app.rid("hide_year"), "Hide year", state["hide"], lambda: state.update(hide=not state["hide"])
        )
        return [View(RELATIVE, id=app.rid("dialog_holder"), children=[picker, hide])]

    def ok() -> None:
        day: date = state["day"]
        on_ok(f"--{day.month:02d}-{day.day:02d}" if state["hide"] else day.isoformat())

    return w.alert(activity, "", body, positive=("OK", ok), negative=("Cancel", lambda: None))
