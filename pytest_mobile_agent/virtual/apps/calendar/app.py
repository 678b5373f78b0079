"""Simple Calendar Pro (com.simplemobiletools.calendar.pro) 6.23.1 as installed: its launcher
entry, About's FAQ and its activities."""

from __future__ import annotations

from pytest_mobile_agent.virtual.apps.calendar.editors import EventActivity, TaskActivity
from pytest_mobile_agent.virtual.apps.calendar.event_types import ManageEventTypesActivity
from pytest_mobile_agent.virtual.apps.calendar.main import MainActivity
from pytest_mobile_agent.virtual.apps.calendar.settings import SettingsActivity
from pytest_mobile_agent.virtual.apps.calendar.store import CalendarStore
from pytest_mobile_agent.virtual.apps.commons.about import COMMONS_FAQ, PRO_SHARED_ACTIVITIES
from pytest_mobile_agent.virtual.apps.commons.customization import CustomizationActivity


class Calendar(CalendarStore):
    label = "Calendar"
    icon = "calendar"
    icon_color = "#1976d2"
    version_code = 251
    version_name = "6.23.1"
    main_activity = MainActivity
    # MainActivity.launchAbout's order; texts from res/values/strings.xml faq_N_text
    faq = (
        (
            "Can I sync my events via Google Calendar, or other service supporting CalDAV? Maybe even share "
            "calendars with other people?",
            'Yes, just toggle "CalDAV sync" in the app settings and select the calendars you want to sync. '
            "However, you will need some third party app handling the synchronization between the device and "
            "servers.",
        ),
        (
            "The app shows no notifications, why is that?",
            "Check your device battery and notification settings, if there is nothing blocking the reminders, or "
            "killing the app in the background. You might also want to take a look at https://dontkillmyapp.com, "
            "it has some useful tips.",
        ),
        (
            "I see the visual reminders, but hear no audio. What can I do?",
            "Not just displaying the actual reminder, but playing the audio is hugely affected by the system too."
            " If you can't hear any sound, try going in the app settings, pressing the \"Audio stream used by "
            "reminders\" option and changing it to a different value. If it still won't work, check your sound "
            "settings, if the particular stream isn't muted.",
        ),
        (
            "How can I modify or delete an existing event type?",
            "You can do both of those in the app Settings - Manage event types. Just click on the wanted one for "
            "changing the label and color, or select the wanted one by long pressing it and use the trashbin at "
            "the top menu for deleting.",
        ),
        (
            'How can I remove the holidays imported via the "Add holidays" button?',
            'Holidays created that way are inserted in a new event type called "Holidays". You can go in Settings'
            " -> Manage Event Types, long press the given event type and delete it by selecting the trashbin.",
        ),
        COMMONS_FAQ[1],
        COMMONS_FAQ[4],
        (
            "Does the app support time zones?",
            "Yes, it does. By default all events are created in your current time zone. If you want to change an "
            "events' time zone, you will first have to enable the time zone picker at the app settings, then "
            "change it at the Event Details screen. It is disabled by default as most people won't need it.",
        ),
    )

    activities = (
        EventActivity,
        TaskActivity,
        SettingsActivity,
        ManageEventTypesActivity,
        CustomizationActivity,
        *PRO_SHARED_ACTIVITIES,
    )


APPS = (Calendar,)
