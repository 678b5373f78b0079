"""Simple Music Player (com.simplemobiletools.musicplayer) 5.18.3 as installed: its launcher entry,
About's FAQ and its activities."""

from __future__ import annotations

from pytest_mobile_agent.virtual.apps.commons.about import COMMONS_FAQ, SHARED_ACTIVITIES
from pytest_mobile_agent.virtual.apps.commons.customization import CustomizationActivity
from pytest_mobile_agent.virtual.apps.musicplayer.equalizer import EqualizerActivity
from pytest_mobile_agent.virtual.apps.musicplayer.main import MainActivity
from pytest_mobile_agent.virtual.apps.musicplayer.settings import ExcludedFoldersActivity, SettingsActivity
from pytest_mobile_agent.virtual.apps.musicplayer.store import MusicPlayerStore
from pytest_mobile_agent.virtual.apps.musicplayer.tracks import (
    AlbumsActivity,
    QueueActivity,
    TrackActivity,
    TracksActivity,
)


class MusicPlayer(MusicPlayerStore):
    label = "Music Player"
    icon = "music"
    icon_color = "#f57c00"
    version_code = 119
    version_name = "5.18.3"
    main_activity = MainActivity
    activities = (
        TrackActivity,
        QueueActivity,
        TracksActivity,
        AlbumsActivity,
        EqualizerActivity,
        SettingsActivity,
        ExcludedFoldersActivity,
        CustomizationActivity,
        *SHARED_ACTIVITIES,
    )
    faq = (
        (
            "How can I fast-forward songs?",
            "You can click on the current or max duration texts near the seekbar, that will move the song either "
            "backward, or forward.",
        ),
        COMMONS_FAQ[1],
        COMMONS_FAQ[4],
        COMMONS_FAQ[9],
    )


APPS = (MusicPlayer,)
