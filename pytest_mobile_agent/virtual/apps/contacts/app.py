"""Simple Contacts Pro (com.simplemobiletools.contacts.pro) 6.22.7 as installed: its launcher entry,
About's FAQ and its activities."""

from __future__ import annotations

from pytest_mobile_agent.virtual.apps.commons.about import COMMONS_FAQ, PRO_SHARED_ACTIVITIES
from pytest_mobile_agent.virtual.apps.commons.customization import CustomizationActivity
from pytest_mobile_agent.virtual.apps.contacts.contact import EditContactActivity, ViewContactActivity
from pytest_mobile_agent.virtual.apps.contacts.groups import GroupContactsActivity
from pytest_mobile_agent.virtual.apps.contacts.main import MainActivity
from pytest_mobile_agent.virtual.apps.contacts.settings import SettingsActivity
from pytest_mobile_agent.virtual.apps.contacts.store import PKG
from pytest_mobile_agent.virtual.ui.app import App


class Contacts(App):
    package = PKG
    label = "Contacts"
    icon = "person"
    icon_color = "#1e88e5"
    version_code = 124
    version_name = "6.22.7"
    main_activity = MainActivity
    faq = (
        (
            "I want to change what fields are visible at contacts. Can I do it?",
            "Yes, all you have to do is go in Settings -> Manage shown contact fields. There you can select what "
            "fields should be visible. Some of them are even disabled by default, so you might find some new ones "
            "there.",
        ),
        COMMONS_FAQ[9],
    )

    activities = (
        ViewContactActivity,
        EditContactActivity,
        GroupContactsActivity,
        SettingsActivity,
        CustomizationActivity,
        *PRO_SHARED_ACTIVITIES,
    )


APPS = (Contacts,)
