"""Simple App Launcher (com.simplemobiletools.applauncher) 5.11.4, F-Droid flavour, as installed:
its launcher entry, About's FAQ and its activities."""

from __future__ import annotations

from pytest_mobile_agent.virtual.apps.applauncher.main import MainActivity
from pytest_mobile_agent.virtual.apps.applauncher.settings import SettingsActivity
from pytest_mobile_agent.virtual.apps.applauncher.store import AppLauncherStore
from pytest_mobile_agent.virtual.apps.commons.about import SHARED_ACTIVITIES
from pytest_mobile_agent.virtual.apps.commons.customization import CustomizationActivity


class AppLauncher(AppLauncherStore):
    label = "App Launcher"
    icon = "grid"
    icon_color = "#f57c00"
    version_code = 53
    version_name = "5.11.4"
    main_activity = MainActivity
    activities = (SettingsActivity, CustomizationActivity, *SHARED_ACTIVITIES)
    faq = (
        (
            "Can I make this app the default launcher?",
            "Nope, you cannot as this is just a basic app icon holder. For a real home screen launcher get our "
            "other app Simple Launcher.",
        ),
    )


APPS = (AppLauncher,)
