"""Simple Voice Recorder (com.simplemobiletools.voicerecorder) 5.12.3, F-Droid flavour, as
installed: its launcher entry, About's FAQ and its activities."""

from __future__ import annotations

from pytest_mobile_agent.virtual.apps.commons.about import COMMONS_FAQ, SHARED_ACTIVITIES
from pytest_mobile_agent.virtual.apps.commons.customization import CustomizationActivity
from pytest_mobile_agent.virtual.apps.voicerecorder.main import MainActivity
from pytest_mobile_agent.virtual.apps.voicerecorder.settings import SettingsActivity
from pytest_mobile_agent.virtual.apps.voicerecorder.store import VoiceRecorderStore


class VoiceRecorder(VoiceRecorderStore):
    label = "Voice Recorder"
    icon = "mic"
    icon_color = "#f57c00"
    version_code = 41
    version_name = "5.12.3"
    main_activity = MainActivity
    activities = (SettingsActivity, CustomizationActivity, *SHARED_ACTIVITIES)
    faq = (
        (
            "Can I hide the notification icon during recording?",
            "Well, it depends. While you use your device it is no longer possible to fully hide the notifications of "
            "apps like this. If you check the proper setting item, the app will do its best to hide it. You can hide "
            "it on the lockscreen though, if you disable the displaying of sensitive notifications in your device "
            "settings.",
        ),
        COMMONS_FAQ[9],
    )


APPS = (VoiceRecorder,)
