"""Simple File Manager Pro (com.simplemobiletools.filemanager.pro) 6.16.1 as installed: its
launcher entry, About's FAQ and its activities."""

from __future__ import annotations

from pytest_mobile_agent.virtual.apps.commons.about import COMMONS_FAQ, PRO_SHARED_ACTIVITIES
from pytest_mobile_agent.virtual.apps.commons.customization import CustomizationActivity
from pytest_mobile_agent.virtual.apps.filemanager.editor import ReadTextActivity
from pytest_mobile_agent.virtual.apps.filemanager.favorites import FavoritesActivity
from pytest_mobile_agent.virtual.apps.filemanager.main import MainActivity
from pytest_mobile_agent.virtual.apps.filemanager.mimetypes import MimeTypesActivity
from pytest_mobile_agent.virtual.apps.filemanager.settings import SettingsActivity
from pytest_mobile_agent.virtual.apps.filemanager.store import PKG
from pytest_mobile_agent.virtual.ui.app import App


class FileManager(App):
    package = PKG
    label = "File Manager"
    icon = "folder"
    icon_color = "#ffa000"
    version_code = 141
    version_name = "6.16.1"
    main_activity = MainActivity
    activities = (
        ReadTextActivity,
        MimeTypesActivity,
        SettingsActivity,
        FavoritesActivity,
        CustomizationActivity,
        *PRO_SHARED_ACTIVITIES,
    )
    faq = (
        (
            "I deleted some files by mistake, how can I recover them?",
            "Sadly, you cannot. Files are deleted instantly after the confirmation dialog, there is no trashbin "
            "available.",
        ),
        COMMONS_FAQ[9],
    )


APPS = (FileManager,)
