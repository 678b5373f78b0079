"""Simple Notes Pro (com.simplemobiletools.notes.pro) 6.17.0, F-Droid flavour, as installed:
its launcher entry, About's FAQ and its activities."""

from __future__ import annotations

from pytest_mobile_agent.virtual.apps.commons.about import (
    COMMONS_FAQ,
    ContributorsActivity,
    FAQActivity,
    ProAboutActivity,
)
from pytest_mobile_agent.virtual.apps.commons.customization import CustomizationActivity
from pytest_mobile_agent.virtual.apps.notes.main import MainActivity
from pytest_mobile_agent.virtual.apps.notes.settings import SettingsActivity
from pytest_mobile_agent.virtual.apps.notes.store import NotesStore


class Notes(NotesStore):
    label = "Notes"
    icon = "note"
    icon_color = "#f57c00"
    version_code = 114
    version_name = "6.17.0"
    main_activity = MainActivity
    activities = (SettingsActivity, ProAboutActivity, FAQActivity, ContributorsActivity, CustomizationActivity)
    faq = (
        COMMONS_FAQ[1],
        (
            "How can I change the widgets color?",
            "In case you have only 1 active widget, you can either recreate it, or use the button in the app "
            "settings for customizing it. If you have multiple active widgets, the button in the app settings will "
            "not be available. As the app supports color customization per-widget, you will have to recreate the "
            "widget that you want to customize.",
        ),
    )


APPS = (Notes,)
