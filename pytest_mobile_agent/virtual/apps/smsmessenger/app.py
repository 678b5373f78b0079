"""Simple SMS Messenger (com.simplemobiletools.smsmessenger) 5.19.3, F-Droid flavour, as
installed: its launcher entry, About's FAQ and its activities."""

from __future__ import annotations

from pytest_mobile_agent.virtual.apps.commons.about import SHARED_ACTIVITIES
from pytest_mobile_agent.virtual.apps.commons.customization import CustomizationActivity
from pytest_mobile_agent.virtual.apps.smsmessenger.blocked import (
    ManageBlockedKeywordsActivity,
    ManageBlockedNumbersActivity,
)
from pytest_mobile_agent.virtual.apps.smsmessenger.main import ArchiveActivity, MainActivity
from pytest_mobile_agent.virtual.apps.smsmessenger.settings import SettingsActivity
from pytest_mobile_agent.virtual.apps.smsmessenger.store import SmsStore
from pytest_mobile_agent.virtual.apps.smsmessenger.thread import (
    ConversationDetailsActivity,
    NewConversationActivity,
    ThreadActivity,
)


class Messenger(SmsStore):
    label = "SMS Messenger"
    icon = "message"
    icon_color = "#f57c00"
    version_code = 85
    version_name = "5.19.3"
    main_activity = MainActivity
    activities = (
        NewConversationActivity,
        ThreadActivity,
        ArchiveActivity,
        SettingsActivity,
        CustomizationActivity,
        ManageBlockedNumbersActivity,
        ManageBlockedKeywordsActivity,
        ConversationDetailsActivity,
        *SHARED_ACTIVITIES,
    )
    faq = (
        (
            "Why does the app require access to the internet?",
            "Sadly it is needed for sending MMS attachments. Not being able to send MMS would be a really huge "
            "disadvantage compared to other apps, so we decided to go this way.",
        ),
        (
            "The other end is not receiving my MMS, is there anything I can do about it?",
            "MMS size is limited by carriers, you can try setting a smaller limit in the app settings.",
        ),
        (
            "Does the app support scheduled messages?",
            "Yes, you can schedule messages to be sent in the future by long pressing the Send button and picking "
            "the desired date and time.",
        ),
    )


APPS = (Messenger,)
