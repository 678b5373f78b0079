"""SMS Messenger's settings screen (activity_settings.xml, SettingsActivity.kt). See
docs/fidelity/smsmessenger.md."""

from __future__ import annotations

from collections.abc import Callable

from pytest_mobile_agent.virtual.apps.commons.customization import CustomizationActivity
from pytest_mobile_agent.virtual.apps.commons.dates import date_time_format_dialog
from pytest_mobile_agent.virtual.apps.commons.settings import (
    language_name,
    settings_check,
    settings_link,
    settings_protected,
    settings_screen,
    settings_section,
    settings_value,
)
from pytest_mobile_agent.virtual.apps.smsmessenger.blocked import (
    ManageBlockedKeywordsActivity,
    ManageBlockedNumbersActivity,
)
from pytest_mobile_agent.virtual.apps.smsmessenger.store import FONT_SIZES
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity
from pytest_mobile_agent.virtual.ui.view import (
    View,
)

LOCK_SCREEN = ("Sender and message", "Sender only", "Nothing")
MMS_LIMITS = ("No limit", "2MB", "1MB", "600KB", "300KB", "200KB", "100KB")
OUTGOING = (  # (name, label, default)
    ("show_character_counter", "Show a character counter at writing messages", False),
    ("use_simple_characters", "Remove accents and diacritics at sending messages", False),
    ("send_on_enter", "Send message on pressing Enter", False),
    ("enable_delivery_reports", "Enable delivery reports", False),
    ("send_long_message_mms", "Send long messages as MMS", False),
    ("send_group_message_mms", "Send group messages as MMS", False),
)


class SettingsActivity(Activity):
    name = ".activities.SettingsActivity"

    def choice(self, pref: str, options: tuple[str, ...], default: int) -> Callable[[], None]:
        """A RadioGroupDialog without title or buttons: a tap saves and closes."""
        app = self.app
        return lambda: self.show(
            w.radio_dialog(self, options, int(app.pref(pref, default)), lambda i: app.set_pref(pref, i))
        )

    def content(self) -> View:
        a = self.app
        value = lambda pref, options, default: options[int(a.pref(pref, default))]
        rows = [
            settings_section(self, "color_customization_section_label", "Color customization"),
            settings_link(self, "color_customization", "Customize colors", lambda: self.start(CustomizationActivity)),
            settings_section(self, "general_settings_label", "General"),
            settings_value(self, "language", "Language", language_name(), lambda: None),
            settings_link(
                self,
                "change_date_time_format",
                "Change date and time format",
                lambda: self.show(date_time_format_dialog(self)),
                label_id="settings_change_date_time_format",
            ),
            settings_link(
                self,
                "manage_blocked_numbers",
                "Manage blocked numbers",
                lambda: self.start(ManageBlockedNumbersActivity),
                label_id="settings_manage_blocked_numbers",
            ),
            settings_link(
                self,
                "manage_blocked_keywords",
                "Manage blocked keywords",
                lambda: self.start(ManageBlockedKeywordsActivity),
                label_id="settings_manage_blocked_keywords",
            ),
            settings_value(
                self,
                "font_size",
                "Font size",
                value("font_size", FONT_SIZES, 1),
                self.choice("font_size", FONT_SIZES, 1),
            ),
            settings_section(self, "notifications_label", "Notifications"),
            settings_link(self, "customize_notifications", "Customize notifications", lambda: None),
            settings_value(
                self,
                "lock_screen_visibility",
                "Lock screen notification visibility",
                value("lock_screen_visibility", LOCK_SCREEN, 0),
                self.choice("lock_screen_visibility", LOCK_SCREEN, 0),
            ),
            settings_section(self, "outgoing_messages_label", "Outgoing messages"),
            *[settings_check(self, name, label, name, default) for name, label, default in OUTGOING],
            settings_value(
                self,
                "mms_file_size_limit",
                "Resize sent MMS images",
                value("mms_file_size_limit", MMS_LIMITS, 3),
                self.choice("mms_file_size_limit", MMS_LIMITS, 3),
            ),
            settings_section(self, "recycle_bin_label", "Recycle Bin"),
            settings_check(
                self, "use_recycle_bin", "Move items into the Recycle Bin instead of deleting", "use_recycle_bin", False
            ),
        ]
        if a.pref("use_recycle_bin", False):
            rows.append(
                settings_value(
                    self,
                    "empty_recycle_bin",
                    "Empty the Recycle Bin",
                    "0 B",
                    lambda: self.toast("The Recycle Bin is empty"),
                )
            )
        rows += [
            settings_section(self, "security_label", "Security"),
            settings_protected(
                self, "app_password_protection", "Password protect the whole application", "app_password_protection"
            ),
            settings_section(self, "migrating_label", "Migrating"),
            settings_link(self, "export_messages", "Export messages", lambda: self.toast("Exporting…")),
            settings_link(self, "import_messages", "Import messages", lambda: self.toast("Importing…")),
        ]
        return settings_screen(self, rows)
