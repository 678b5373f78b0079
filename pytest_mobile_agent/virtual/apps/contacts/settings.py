"""Simple Contacts Pro's settings screen (activity_settings.xml, SettingsActivity.kt)."""

from __future__ import annotations

from collections.abc import Callable

from pytest_mobile_agent.virtual.apps.commons.customization import CustomizationActivity
from pytest_mobile_agent.virtual.apps.commons.settings import (
    language_name,
    settings_check,
    settings_link,
    settings_screen,
    settings_section,
    settings_value,
)
from pytest_mobile_agent.virtual.apps.contacts.dialogs import NO_APP, checks_dialog, manage_fields_dialog
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity
from pytest_mobile_agent.virtual.ui.view import RELATIVE, View

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
