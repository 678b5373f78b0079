"""Simple Gallery Pro (com.simplemobiletools.gallery.pro) 6.28.1, F-Droid flavour, as installed:
its launcher entry (the folders or, with "show all", the media grid), About's FAQ and its activities."""

from __future__ import annotations

from pytest_mobile_agent.virtual.apps.commons.about import PRO_SHARED_ACTIVITIES
from pytest_mobile_agent.virtual.apps.gallery.editor import EditActivity
from pytest_mobile_agent.virtual.apps.gallery.main import MainActivity, MediaActivity
from pytest_mobile_agent.virtual.apps.gallery.settings import SettingsActivity
from pytest_mobile_agent.virtual.apps.gallery.store import GalleryStore
from pytest_mobile_agent.virtual.apps.gallery.viewer import (
    PhotoActivity,
    SetWallpaperActivity,
    VideoActivity,
    ViewPagerActivity,
)
from pytest_mobile_agent.virtual.ui.app import Activity


class Gallery(GalleryStore):
    label = "Gallery"
    icon = "image"
    icon_color = "#f57c00"
    version_code = 396
    version_name = "6.28.1"
    activities = (
        MainActivity,
        MediaActivity,
        ViewPagerActivity,
        PhotoActivity,
        VideoActivity,
        SetWallpaperActivity,
        EditActivity,
        SettingsActivity,
        *PRO_SHARED_ACTIVITIES,
    )
    faq = (
        (
            "How can I make Simple Gallery the default device gallery?",
            "First you have to find the currently default gallery in the Apps section of your device settings, look "
            'for a button that says something like "Open by default", click on it, then select "Clear defaults".',
        ),
        (
            "I locked the app with a password, but I forgot it. What can I do?",
            "You can solve it in 2 ways. You can either reinstall the app, or find the app in your device settings "
            'and select "Clear data". It will reset all your settings, it will not remove any media files.',
        ),
        (
            "How can I make an album always appear at the top?",
            "You can long press the desired album and select the Pin icon at the action menu, that will pin it to "
            "the top. You can pin multiple folders too, pinned items will be sorted by the default sorting method.",
        ),
    )

    @property
    def main_activity(self) -> type[Activity]:  # type: ignore[override]  # App's is fixed; a pref picks this one
        """The launcher opens straight into the media grid while "show all" is on."""
        return MediaActivity if self.pref("show_all", False) else MainActivity


APPS = (Gallery,)
