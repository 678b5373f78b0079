"""Simple App Launcher's settings screen (activity_settings.xml)."""

from __future__ import annotations

from pytest_mobile_agent.virtual.apps.commons.customization import CustomizationActivity
from pytest_mobile_agent.virtual.apps.commons.settings import (
    language_name,
    settings_check,
    settings_link,
    settings_screen,
    settings_section,
    settings_value,
)
from pytest_mobile_agent.virtual.ui.app import Activity
from pytest_mobile_agent.virtual.ui.view import View


class SettingsActivity(Activity):
    name = ".activities.SettingsActivity"

    def content(self) -> View:
        rows = [
            settings_section(self, "color_customization_section_label", "Color customization"),
            settings_link(self, "color_customization", "Customize colors", lambda: self.start(CustomizationActivity)),
            settings_section(self, "general_settings_label", "General"),
            settings_value(self, "language", "Language", language_name(), lambda: None),
            settings_check(self, "close_app", "Close this app at launching a different one", "close_app", True),
        ]
        return settings_screen(self, rows)
