"""Simple Contacts Pro: the contact screens, their dialogs and settings.

Learned from Simple-Contacts' activity_view_contact.xml, activity_edit_contact.xml, item_edit_*.xml,
item_view_*.xml, menu_view_contact.xml, menu_edit_contact.xml, ViewContactActivity.kt,
EditContactActivity.kt, activity_settings.xml and SettingsActivity.kt, and Simple-Commons'
ManageVisibleFieldsDialog (dialog_manage_visible_fields.xml) and BaseConfig.showContactFields.
The main screen is in contacts.py, the provider storage in contacts_store.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pytest_mobile_agent.virtual.apps.commons.customization import CustomizationActivity
from pytest_mobile_agent.virtual.apps.commons.menus import split_menu
from pytest_mobile_agent.virtual.apps.commons.settings import (
    language_name,
    settings_check,
    settings_link,
    settings_screen,
    settings_section,
    settings_value,
)
from pytest_mobile_agent.virtual.apps.contacts.store import (
    ADDRESS_TYPES,
    EMAIL_TYPES,
    PHONE_TYPES,
    RECYCLER,
    ContactsStore,
    display_name,
    empty_contact,
    sort_contacts,
    source_name,
)
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, App
from pytest_mobile_agent.virtual.ui.view import CHECKBOX, LINEAR, RELATIVE, View

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
UNSAVED = "You have unsaved changes. Save before exit?"
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
            w.checkbox(app.rid(rid), label, key in state, lambda k=key: state.symmetric_difference_update({k}))
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


def select_contacts_dialog(activity: Activity):
    """SelectContactsDialog for "Add favorites": every contact with a checkbox, starred ones ticked."""
    app = activity.app
    store: ContactsStore = app.store  # type: ignore[attr-defined]
    contacts = sort_contacts(app, store.all())
    state = {c["id"] for c in contacts if c["starred"]}

    def body() -> list[View]:
        rows = [
            View(
                w.FRAME,
                id=app.rid("contact_frame"),
                clickable=True,
                kind="row",
                height=56,
                on_click=lambda i=c["id"]: state.symmetric_difference_update({i}),
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
        store.set_starred([c["id"] for c in contacts if c["id"] in state], True)
        store.set_starred([c["id"] for c in contacts if c["id"] not in state], False)

    return w.alert(activity, "", body, positive=("OK", ok), negative=("Cancel", lambda: None))


def contact_toolbar(activity: Activity, items: list) -> View:
    """contact_appbar > contact_toolbar: a back arrow and no title."""
    app = activity.app
    actions, overflow = split_menu(items)
    bar = w.toolbar(activity, "contact_toolbar", "", actions=actions, overflow=overflow, back=True)
    bar.children[0].on_click = lambda: activity.on_back() or activity.finish()
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
        return self.app.store  # type: ignore[attr-defined]

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
        for key, holder, item, typ, values, types in (
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
                        id=a.rid(holder),
                    )
                )
        if "notes" in shown and c["notes"]:
            rows.append(w.text(a.rid("contact_notes"), c["notes"], padding=12))
        if "organization" in shown and (c["company"] or c["job"]):
            rows += [
                w.text(a.rid("contact_organization_company"), c["company"], padding=12),
                w.text(a.rid("contact_organization_job_position"), c["job"], padding=12),
            ]
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
        return self.app.store  # type: ignore[attr-defined]

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
                            on_click=lambda k=kind, i=i, ty=types: self.pick_type(k, i, ty),
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
                    lambda k=kind, it=item, d=default: self.add_row(k, it, d),
                    cls="android.widget.ImageView",
                )
            )
        if "events" in shown:
            rows.append(
                w.column(
                    [
                        View(
                            RELATIVE,
                            id=a.rid("contact_event_holder"),
                            orientation="h",
                            children=[
                                w.text(a.rid("contact_event"), "Unknown", weight=1, padding=12),
                                w.text(a.rid("contact_event_type"), "Birthday", size=14, padding=12),
                            ],
                        )
                    ],
                    id=a.rid("contact_events_holder"),
                )
            )
        if "notes" in shown:
            rows.append(w.edit(self, "contact_notes", hint="Notes"))
        if "organization" in shown:
            rows += [
                w.edit(self, "contact_organization_company", key="contact_company", hint="Company"),
                w.edit(self, "contact_organization_job_position", key="contact_job", hint="Job position"),
            ]
        if "groups" in shown:
            rows.append(
                w.column(
                    [
                        View(
                            RELATIVE,
                            id=a.rid("contact_group_holder"),
                            clickable=True,
                            kind="row",
                            on_click=lambda: self.toast("There are no contact groups on the device"),
                            children=[w.text(a.rid("contact_group"), "No groups", padding=12)],
                        )
                    ],
                    id=a.rid("contact_groups_holder"),
                )
            )
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


# -- settings -------------------------------------------------------------------------------
TAB_NAMES = ("Contacts", "Favorites", "Groups")
DEFAULT_TABS = ("Contacts", "Favorites", "Groups", "Last used one")
ON_CLICK = ("Call contact", "View contact details", "Edit contact")
FONT_SIZES = ("Small", "Medium", "Large", "Extra large")


class SettingsActivity(Activity):
    name = ".activities.SettingsActivity"

    def radio(self, pref: str, options: tuple[str, ...], default: int) -> Callable[[], None]:
        def show() -> None:
            current = int(self.app.pref(pref, default))
            self.show(w.radio_dialog(self, options, current, lambda i: self.app.set_pref(pref, i)))

        return show

    def manage_tabs(self) -> None:
        items = [(name.lower(), f"manage_visible_tabs_{name.lower()}", name) for name in TAB_NAMES]
        chosen = set(self.app.pref("shown_tabs", [n.lower() for n in TAB_NAMES]))
        self.show(
            checks_dialog(
                self, "manage_visible_tabs", items, chosen, lambda s: self.app.set_pref("shown_tabs", sorted(s))
            )
        )

    def content(self) -> View:
        a, p = self.app, self.app.pref
        default_tab = int(p("default_tab", -1))
        rows = [
            settings_section(self, "color_customization_section_label", "Color customization"),
            settings_link(self, "color_customization", "Customize colors", lambda: self.start(CustomizationActivity)),
            settings_section(self, "general_settings_label", "General"),
            settings_value(self, "language", "Language", language_name(), lambda: self.toast(NO_APP)),
            settings_value(
                self,
                "font_size",
                "Font size",
                FONT_SIZES[int(p("font_size", 1))],
                self.radio("font_size", FONT_SIZES, 1),
            ),
            settings_link(
                self,
                "manage_contact_fields",
                "Manage shown contact fields",
                lambda: self.show(manage_fields_dialog(self)),
            ),
            settings_check(
                self, "merge_duplicate_contacts", "Merge duplicate contacts", "merge_duplicate_contacts", True
            ),
            settings_check(
                self,
                "show_call_confirmation",
                "Show a call confirmation dialog before initiating a call",
                "show_call_confirmation",
                False,
            ),
            settings_check(
                self,
                "show_private_contacts",
                "Show private contacts to Simple Dialer, Simple SMS Messenger and Simple Calendar Pro",
                "show_private_contacts",
                True,
            ),
            settings_section(self, "main_screen_label", "Main screen"),
            settings_link(self, "manage_shown_tabs", "Manage shown tabs", self.manage_tabs),
            settings_value(
                self, "default_tab", "Tab to open at app start", DEFAULT_TABS[default_tab], self._pick_default_tab
            ),
            settings_value(
                self,
                "on_contact_click",
                "On contact click",
                ON_CLICK[int(p("on_contact_click", 1))],
                self.radio("on_contact_click", ON_CLICK, 1),
            ),
            settings_check(
                self, "show_dialpad_button", "Show a dialpad button on the main screen", "show_dialpad_button", True
            ),
            settings_check(
                self,
                "show_only_contacts_with_numbers",
                "Show only contacts with phone numbers",
                "show_only_contacts_with_numbers",
                False,
            ),
            settings_section(self, "list_view_label", "List view"),
            settings_check(self, "show_contact_thumbnails", "Show contact thumbnails", "show_contact_thumbnails", True),
            settings_check(self, "show_phone_numbers", "Show phone numbers", "show_phone_numbers", False),
            settings_check(
                self, "start_name_with_surname", "Start name with surname", "start_name_with_surname", False
            ),
            settings_section(self, "backups_label", "Backups"),
            settings_check(self, "enable_automatic_backups", "Enable automatic backups", "auto_backup", False),
            settings_section(self, "migrating_label", "Migrating"),
        ]
        for name, label in (
            ("contacts_export", "Export contacts to a .vcf file"),
            ("contacts_import", "Import contacts from a .vcf file"),
        ):
            rows.append(
                View(
                    RELATIVE,
                    id=a.rid(f"{name}_holder"),
                    clickable=True,
                    focusable=True,
                    kind="row",
                    padding=8,
                    on_click=lambda: self.toast(NO_APP),
                    children=[w.text(a.rid(name), label)],
                )
            )
        return settings_screen(self, rows)

    def _pick_default_tab(self) -> None:
        current = int(self.app.pref("default_tab", -1))

        def chosen(i: int) -> None:
            self.app.set_pref("default_tab", -1 if i == 3 else i)

        self.show(w.radio_dialog(self, DEFAULT_TABS, current % 4, chosen))


ACTIVITIES: tuple[type[Activity], ...] = (
    ViewContactActivity,
    EditContactActivity,
    SettingsActivity,
    CustomizationActivity,
)
