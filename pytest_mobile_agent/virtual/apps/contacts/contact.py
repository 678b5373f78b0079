"""Simple Contacts Pro's contact screens: view and edit a contact.

Learned from Simple-Contacts' activity_view_contact.xml, activity_edit_contact.xml, item_edit_*.xml,
item_view_*.xml, menu_view_contact.xml, menu_edit_contact.xml, ViewContactActivity.kt and
EditContactActivity.kt, and Simple-Commons' ManageVisibleFieldsDialog
(dialog_manage_visible_fields.xml) and BaseConfig.showContactFields.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from pytest_mobile_agent.virtual.apps.commons.menus import split_menu
from pytest_mobile_agent.virtual.apps.contacts.dialogs import (
    NAME_FIELDS,
    NO_APP,
    date_picker_dialog,
    event_text,
    manage_fields_dialog,
    select_groups_dialog,
    shown_fields,
)
from pytest_mobile_agent.virtual.apps.contacts.store import (
    ADDRESS_TYPES,
    BIRTHDAY,
    EMAIL_TYPES,
    EVENT_TYPES,
    PHONE_TYPES,
    ContactsStore,
    display_name,
    empty_contact,
    source_name,
)
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, App
from pytest_mobile_agent.virtual.ui.view import IMAGE, RELATIVE, View

UNSAVED = "You have unsaved changes. Save before exit?"


def back(activity: Activity) -> None:
    """The toolbar's back arrow: what BACK does, else leave the screen."""
    if not activity.on_back():
        activity.finish()


def contact_toolbar(activity: Activity, items: list) -> View:
    """contact_appbar > contact_toolbar: a back arrow and no title."""
    app = activity.app
    actions, overflow = split_menu(items)
    bar = w.toolbar(activity, "contact_toolbar", "", actions=actions, overflow=overflow, back=True)
    bar.children[0].on_click = partial(back, activity)
    return View("android.widget.LinearLayout", id=app.rid("contact_appbar"), children=[bar])


def star(app: App, starred: bool, action: Callable[[], None]) -> View:
    return w.icon_button(
        app.rid("contact_toggle_favorite"),
        "Toggle favorite",
        "star" if starred else "star_outline",
        action,
        cls="android.widget.ImageView",
    )


# -- view contact ---------------------------------------------------------------------------
class ViewContactActivity(Activity):
    name = ".activities.ViewContactActivity"

    @property
    def store(self) -> ContactsStore:
        return ContactsStore(self.app)  # the provider's rows: nothing to keep between reads

    def contact(self) -> dict[str, Any] | None:
        return self.store.get(int(self.extras.get("contact_id", "0")))

    def toggle_star(self) -> None:
        c = self.contact()
        if c:
            self.store.set_starred([c["id"]], not c["starred"])

    def delete(self) -> None:
        def yes() -> None:
            self.store.delete([int(self.extras["contact_id"])])
            self.finish()

        self.show(w.confirm_dialog(self, "Are you sure you want to proceed with the deletion?", yes))

    def edit(self) -> None:
        self.start(EditContactActivity, contact_id=self.extras["contact_id"])

    def content(self) -> View:
        a = self.app
        c = self.contact() or empty_contact()
        shown = shown_fields(a)
        items = [
            ("edit", "Edit contact", "edit", self.edit, "always"),
            ("share", "Share", "share", lambda: self.toast(NO_APP), "always"),
            ("delete", "Delete", "delete", self.delete, "always"),
            ("open_with", "Open with", "", lambda: self.toast(NO_APP), "never"),
            (
                "manage_visible_fields",
                "Manage shown contact fields",
                "",
                lambda: self.show(manage_fields_dialog(self)),
                "never",
            ),
        ]
        actions = [
            w.icon_button(a.rid(rid), desc, icon, lambda: self.toast(NO_APP), cls="android.widget.ImageView")
            for rid, desc, icon, ok in (
                ("contact_send_email", "Send email", "email", c["emails"]),
                ("contact_start_call", "Call contact", "phone", c["numbers"]),
                ("contact_send_sms", "Send SMS", "message", c["numbers"]),
            )
            if ok
        ]
        rows: list[View] = [
            w.row(
                [
                    w.image(a.rid("contact_photo"), "Change photo", "person", width=96, height=96, kind="image"),
                    star(a, bool(c["starred"]), self.toggle_star),
                ],
                height=104,
                gravity="center",
            ),
            w.row(actions, id=a.rid("contact_actions_holder"), height=56, gravity="center"),
            w.text(a.rid("contact_name"), display_name(a, c), size=22, padding=12, gravity="center"),
        ]
        for key, holder_id, item, typ, values, types in (
            (
                "phone_numbers",
                "contact_numbers_holder",
                "contact_number",
                "contact_number_type",
                c["numbers"],
                PHONE_TYPES,
            ),
            ("emails", "contact_emails_holder", "contact_email", "contact_email_type", c["emails"], EMAIL_TYPES),
            (
                "addresses",
                "contact_addresses_holder",
                "contact_address",
                "contact_address_type",
                c["addresses"],
                ADDRESS_TYPES,
            ),
        ):
            if key in shown and values:
                rows.append(
                    w.column(
                        [
                            View(
                                RELATIVE,
                                id=a.rid(f"{item}_holder"),
                                clickable=True,
                                long_clickable=True,
                                kind="row",
                                orientation="h",
                                padding=8,
                                on_click=lambda: self.toast(NO_APP),
                                children=[
                                    w.text(a.rid(item), v, weight=1),
                                    w.text(a.rid(typ), types.get(t, "Other"), size=14),
                                ],
                            )
                            for v, t in values
                        ],
                        id=a.rid(holder_id),
                    )
                )
        today = a.device.clock.now().date()
        if "events" in shown and c["events"]:
            events = [
                View(
                    RELATIVE,
                    id=a.rid("contact_event_holder"),
                    orientation="h",
                    padding=8,
                    children=[
                        w.text(a.rid("contact_event"), event_text(tag, today), weight=1),
                        w.text(a.rid("contact_event_type"), EVENT_TYPES.get(t, "Other"), size=14),
                    ],
                )
                for tag, t in c["events"]
            ]
            rows.append(w.column(events, id=a.rid("contact_events_holder")))
        if "notes" in shown and c["notes"]:
            rows.append(w.text(a.rid("contact_notes"), c["notes"], padding=12))
        if "organization" in shown and (c["company"] or c["job"]):
            rows += [
                w.text(a.rid("contact_organization_company"), c["company"], padding=12),
                w.text(a.rid("contact_organization_job_position"), c["job"], padding=12),
            ]
        titles = {g["id"]: g["title"] for g in self.store.groups()}
        member_of = sorted((titles[g] for g in set(c["groups"]) if g in titles), key=str.lower)
        if "groups" in shown and member_of:
            groups = [w.text(a.rid("contact_group"), t, padding=8) for t in member_of]
            rows.append(w.column(groups, id=a.rid("contact_groups_holder")))
        if "contact_source" in shown:
            rows.append(
                w.column(
                    [w.text(a.rid("contact_source"), source_name(c["source"]), padding=12)],
                    id=a.rid("contact_sources_holder"),
                )
            )
        holder = w.column(rows, id=a.rid("contact_holder"))
        body = w.scroll(a.rid("contact_scrollview"), [holder])
        return View(
            RELATIVE, id=a.rid("contact_wrapper"), children=[w.column([contact_toolbar(self, items), body], weight=1)]
        )


# -- edit / new contact ---------------------------------------------------------------------
class EditContactActivity(Activity):
    name = ".activities.EditContactActivity"
    LISTS = (
        ("numbers", "contact_number", "Number", PHONE_TYPES, 2),
        ("emails", "contact_email", "Email", EMAIL_TYPES, 1),
        ("addresses", "contact_address", "Address", ADDRESS_TYPES, 1),
    )

    def __init__(self, app: App, extras: dict[str, str] | None = None) -> None:
        super().__init__(app, extras)
        self.contact = self.store.get(int(self.extras.get("contact_id", "0"))) or empty_contact()
        c = self.contact
        for key, field, _ in NAME_FIELDS:
            self.texts[f"contact_{key}"] = c[field]
        for field in ("notes", "company", "job"):
            self.texts[f"contact_{field}"] = c[field]
        self.types: dict[str, list[int]] = {}
        for kind, item, _, _, default in self.LISTS:
            values = c[kind] or [("", default)]
            self.types[kind] = [t for _, t in values]
            for i, (v, _) in enumerate(values):
                self.texts[f"{item}_{i}"] = v
        self.starred = bool(c["starred"])
        # activity_edit_contact.xml holds one empty event row ("Unknown") until events are set
        self.events: list[list[Any]] = [[tag, t] for tag, t in c["events"]] or [["", BIRTHDAY]]
        known = {g["id"] for g in self.store.groups()}
        self.groups: list[int] = sorted({g for g in c["groups"] if g in known})
        self.original = self.collect()
        if not c["id"]:  # ACTION_INSERT's extras (EditContactActivity.gotContact), on the empty rows
            for extra, key in (
                ("name", "contact_first_name"),
                ("phone", "contact_number_0"),
                ("email", "contact_email_0"),
            ):
                if extra in self.extras:
                    self.texts[key] = self.extras[extra]

    @property
    def store(self) -> ContactsStore:
        return ContactsStore(self.app)  # the provider's rows: nothing to keep between reads

    def collect(self) -> dict[str, Any]:
        c = dict(self.contact)
        for key, field, _ in NAME_FIELDS:
            c[field] = self.texts.get(f"contact_{key}", "").strip()
        for field in ("notes", "company", "job"):
            c[field] = self.texts.get(f"contact_{field}", "").strip()
        for kind, item, _, _, _ in self.LISTS:
            c[kind] = [(self.texts.get(f"{item}_{i}", "").strip(), t) for i, t in enumerate(self.types[kind])]
            c[kind] = [(v, t) for v, t in c[kind] if v]
        c["starred"] = int(self.starred)
        c["events"] = [(tag, t) for tag, t in self.events if tag]
        c["groups"] = list(self.groups)
        return c

    def save(self) -> None:
        c = self.collect()
        filled = [c[f] for _, f, _ in NAME_FIELDS] + [c["notes"], c["company"], c["job"]]
        if not any(filled) and not any(c[k] for k, *_ in self.LISTS):
            self.toast("At least 1 field has to be filled out")
            return
        if not c["id"]:
            self.toast("Inserting…")
        self.store.save(c)
        self.finish()

    def on_back(self) -> bool:
        if self.collect() == self.original:
            return False
        body = [w.text(self.app.rid("message"), UNSAVED, padding=12)]
        self.show(w.alert(self, "", body, positive=("Save", self.save), negative=("Discard", self.finish)))
        return True

    def delete(self) -> None:
        def yes() -> None:
            self.store.delete([self.contact["id"]])
            self.wm.finish(self)
            for act in list(self.wm.tasks[-1]) if self.wm.tasks else []:
                if isinstance(act, ViewContactActivity):
                    act.finish()

        self.show(w.confirm_dialog(self, "Are you sure you want to proceed with the deletion?", yes))

    def add_row(self, kind: str, item: str, default: int) -> None:
        self.types[kind].append(default)
        w.focus(self, f"{item}_{len(self.types[kind]) - 1}")

    def pick_type(self, kind: str, i: int, types: dict[int, str]) -> None:
        codes = list(types)

        def chosen(k: int) -> None:
            self.types[kind][i] = codes[k]

        current = codes.index(self.types[kind][i]) if self.types[kind][i] in codes else 0
        self.show(w.radio_dialog(self, [types[t] for t in codes], current, chosen))

    def toggle_star(self) -> None:
        self.starred = not self.starred

    # -- events and groups ------------------------------------------------------------------
    def pick_date(self, i: int) -> None:
        def chosen(tag: str) -> None:
            self.events[i][0] = tag

        today = self.app.device.clock.now().date()
        self.show(date_picker_dialog(self, self.events[i][0], today, chosen))

    def pick_event_type(self, i: int) -> None:
        codes = list(EVENT_TYPES)

        def chosen(k: int) -> None:
            self.events[i][1] = codes[k]

        current = codes.index(self.events[i][1]) if self.events[i][1] in codes else 1
        self.show(w.radio_dialog(self, [EVENT_TYPES[t] for t in codes], current, chosen))

    def clear_event(self, i: int) -> None:
        self.events[i][0] = ""  # resetContactEvent: the row stays, "Unknown"

    def choose_groups(self) -> None:
        def chosen(ids: list[int]) -> None:
            self.groups = ids

        self.show(select_groups_dialog(self, self.groups, chosen))

    def events_rows(self) -> list[View]:
        """item_event.xml rows (`contact_events_holder`) and `contact_events_add_new`."""
        a, today = self.app, self.app.device.clock.now().date()
        lines = [
            View(
                RELATIVE,
                id=a.rid("contact_event_holder"),
                orientation="h",
                children=[
                    w.text(
                        a.rid("contact_event"),
                        event_text(tag, today) if tag else "Unknown",
                        weight=1,
                        padding=12,
                        clickable=True,
                        alpha=1.0 if tag else 0.5,
                        on_click=partial(self.pick_date, i),
                    ),
                    *(
                        [
                            w.icon_button(
                                a.rid("contact_event_remove"), "", "remove", partial(self.clear_event, i), cls=IMAGE
                            )
                        ]
                        if tag
                        else []
                    ),
                    w.text(
                        a.rid("contact_event_type"),
                        EVENT_TYPES.get(t, "Other"),
                        size=14,
                        padding=12,
                        clickable=True,
                        on_click=partial(self.pick_event_type, i),
                    ),
                ],
            )
            for i, (tag, t) in enumerate(self.events)
        ]
        add = w.icon_button(
            a.rid("contact_events_add_new"), "", "add", lambda: self.events.append(["", BIRTHDAY]), cls=IMAGE
        )
        return [w.column(lines, id=a.rid("contact_events_holder")), add]

    def groups_rows(self) -> list[View]:
        """item_edit_group.xml rows (`contact_groups_holder`): the contact's groups by title, or
        "No groups"; a row or `contact_groups_add_new` opens SelectGroupsDialog."""
        a = self.app
        titles = {g["id"]: g["title"] for g in self.store.groups()}
        lines = [
            View(
                RELATIVE,
                id=a.rid("contact_group_holder"),
                clickable=True,
                orientation="h",
                on_click=self.choose_groups,
                children=[
                    w.text(a.rid("contact_group"), titles.get(g, ""), padding=12, weight=1),
                    w.icon_button(
                        a.rid("contact_group_remove"), "", "remove", partial(self.groups.remove, g), cls=IMAGE
                    ),
                ],
            )
            for g in self.groups
        ] or [
            View(
                RELATIVE,
                id=a.rid("contact_group_holder"),
                clickable=True,
                on_click=self.choose_groups,
                children=[w.text(a.rid("contact_group"), "No groups", padding=12, alpha=0.5)],
            )
        ]
        add = w.icon_button(a.rid("contact_groups_add_new"), "", "add", self.choose_groups, cls=IMAGE)
        return [w.column(lines, id=a.rid("contact_groups_holder")), add]

    def content(self) -> View:
        a = self.app
        shown = shown_fields(a)
        new = not self.contact["id"]
        items = [("save", "Save", "check", self.save, "always")]
        if not new:
            items += [
                ("share", "Share", "share", lambda: self.toast(NO_APP), "always"),
                ("delete", "Delete", "delete", self.delete, "always"),
                ("open_with", "Open with", "", lambda: self.toast(NO_APP), "never"),
            ]
        items.append(
            (
                "manage_visible_fields",
                "Manage shown contact fields",
                "",
                lambda: self.show(manage_fields_dialog(self)),
                "never",
            )
        )
        rows: list[View] = [
            w.row(
                [
                    w.image(a.rid("contact_photo"), "Change photo", "person", width=96, height=96, kind="image"),
                    star(a, self.starred, self.toggle_star),
                    w.icon_button(
                        a.rid("contact_change_photo"),
                        "Change photo",
                        "camera",
                        lambda: self.toast(NO_APP),
                        cls="android.widget.ImageView",
                    ),
                ],
                height=104,
                gravity="center",
            )
        ]
        for key, _, hint in NAME_FIELDS:
            if key in shown:
                rows.append(w.edit(self, f"contact_{key}", hint=hint))
        for (kind, item, hint, types, default), key in zip(self.LISTS, ("phone_numbers", "emails", "addresses")):
            if key not in shown:
                continue
            plural = {"numbers": "numbers", "emails": "emails", "addresses": "addresses"}[kind]
            lines = [
                View(
                    RELATIVE,
                    id=a.rid(f"{item}_holder"),
                    orientation="h",
                    children=[
                        w.edit(self, item, key=f"{item}_{i}", hint=hint, weight=1),
                        w.text(
                            a.rid(f"{item}_type"),
                            types.get(t, "Other"),
                            size=14,
                            clickable=True,
                            padding=12,
                            on_click=partial(self.pick_type, kind, i, types),
                        ),
                    ],
                )
                for i, t in enumerate(self.types[kind])
            ]
            rows.append(w.column(lines, id=a.rid(f"contact_{plural}_holder")))
            rows.append(
                w.icon_button(
                    a.rid(f"contact_{plural}_add_new"),
                    "",
                    "add",
                    partial(self.add_row, kind, item, default),
                    cls="android.widget.ImageView",
                )
            )
        if "events" in shown:
            rows += self.events_rows()
        if "notes" in shown:
            rows.append(w.edit(self, "contact_notes", hint="Notes"))
        if "organization" in shown:
            rows += [
                w.edit(self, "contact_organization_company", key="contact_company", hint="Company"),
                w.edit(self, "contact_organization_job_position", key="contact_job", hint="Job position"),
            ]
        if "groups" in shown:
            rows += self.groups_rows()
        if "contact_source" in shown:
            rows.append(
                w.text(
                    a.rid("contact_source"),
                    source_name(self.contact["source"]),
                    clickable=True,
                    padding=12,
                    on_click=lambda: None,
                )
            )
        holder = w.column(rows, id=a.rid("contact_holder"))
        body = w.scroll(a.rid("contact_scrollview"), [holder])
        return View(
            RELATIVE, id=a.rid("contact_wrapper"), children=[w.column([contact_toolbar(self, items), body], weight=1)]
        )
