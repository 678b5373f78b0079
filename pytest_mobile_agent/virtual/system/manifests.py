"""The intent filters the modelled apps declare, and how each activity reads the intent it gets.

The filters are the real apps' AndroidManifest.xml (Simple Mobile Tools, the versions the app
models follow: docs/fidelity/), with the activities the models have; filters of activities that
are not modelled are left out and listed in docs/adb-commands.md (Gallery's EditActivity,
File Manager's PDFViewerActivity and DecompressActivity, Contacts' InsertOrEditContactActivity,
widgets). `resolve` matches an intent against them with the activity starter's
MATCH_DEFAULT_ONLY (an implicit intent reaches only filters with CATEGORY_DEFAULT). `deliver`
starts the activity the way the real one reads its intent: which extras it takes, with which
type (`getLongExtra("beginTime")` ignores a string), and where it goes next (SMS Messenger's
NewConversationActivity hands a `smsto:` number straight to the thread).
"""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import unquote

from pytest_mobile_agent.virtual.system.intents import (
    DEFAULT,
    HOME,
    LAUNCHER,
    MAIN,
    Intent,
    IntentFilter,
    Long,
    Match,
    provider_type,
)
from pytest_mobile_agent.virtual.system.packages import PackageManager
from pytest_mobile_agent.virtual.ui.app import Context

A = "android.intent.action."
VIEW, SEND, SENDTO, EDIT, INSERT = A + "VIEW", A + "SEND", A + "SENDTO", A + "EDIT", A + "INSERT"
PREFERENCES = A + "APPLICATION_PREFERENCES"
BROWSABLE, OPENABLE = "android.intent.category.BROWSABLE", "android.intent.category.OPENABLE"
SETTINGS = (".activities.SettingsActivity", IntentFilter((PREFERENCES,)))
AUDIO_TYPES = ("audio/*", "application/ogg", "application/x-ogg", "application/itunes")
CONTENT_FILE = ("content", "file")

FILTERS: dict[str, tuple[tuple[str, IntentFilter], ...]] = {
    "com.android.launcher3": ((".uioverrides.QuickstepLauncher", IntentFilter((MAIN,), (HOME, DEFAULT))),),
    "com.android.chrome": (
        ("com.google.android.apps.chrome.Main", IntentFilter((VIEW,), (DEFAULT, BROWSABLE), ("http", "https"))),
    ),
    "com.simplemobiletools.contacts.pro": (
        (".activities.MainActivity", IntentFilter((VIEW,), types=("text/directory", "text/vcard", "text/x-vcard"))),
        SETTINGS,
        (
            ".activities.ViewContactActivity",
            IntentFilter(
                (VIEW,),
                types=(
                    "vnd.android.cursor.dir/person",
                    "vnd.android.cursor.dir/contact",
                    "vnd.android.cursor.item/group",
                ),
            ),
        ),
        (
            ".activities.ViewContactActivity",
            IntentFilter(
                (VIEW,),
                types=(
                    "vnd.android.cursor.item/person",
                    "vnd.android.cursor.item/contact",
                    "vnd.android.cursor.item/raw_contact",
                ),
            ),
        ),
        (
            ".activities.ViewContactActivity",
            IntentFilter(
                ("com.android.contacts.action.QUICK_CONTACT", "android.provider.action.QUICK_CONTACT"),
                types=("vnd.android.cursor.item/contact", "vnd.android.cursor.item/person"),
            ),
        ),
        # <data android:host=...> without a scheme: Android ignores the host, the types decide.
        (
            ".activities.EditContactActivity",
            IntentFilter(
                (EDIT,),
                types=(
                    "vnd.android.cursor.item/person",
                    "vnd.android.cursor.item/contact",
                    "vnd.android.cursor.item/raw_contact",
                ),
            ),
        ),
        (
            ".activities.EditContactActivity",
            IntentFilter(
                (INSERT,),
                types=(
                    "vnd.android.cursor.dir/person",
                    "vnd.android.cursor.dir/contact",
                    "vnd.android.cursor.dir/raw_contact",
                ),
            ),
        ),
    ),
    "com.simplemobiletools.calendar.pro": (
        (
            ".activities.MainActivity",
            IntentFilter((VIEW,), schemes=CONTENT_FILE, types=("text/x-vcalendar", "text/calendar", "application/ics")),
        ),
        (".activities.MainActivity", IntentFilter((VIEW,), schemes=("content",), types=("time/epoch",))),
        (".activities.MainActivity", IntentFilter((VIEW,), types=("vnd.android.cursor.item/event",))),
        (".activities.EventActivity", IntentFilter((EDIT, INSERT), types=("vnd.android.cursor.item/event",))),
        (".activities.EventActivity", IntentFilter((EDIT, INSERT), types=("vnd.android.cursor.dir/event",))),
        SETTINGS,
    ),
    "com.simplemobiletools.smsmessenger": (
        (
            ".activities.NewConversationActivity",
            IntentFilter((SEND, SENDTO, VIEW), (DEFAULT, BROWSABLE), ("sms", "smsto", "mms", "mmsto")),
        ),
        (".activities.NewConversationActivity", IntentFilter((SEND,), types=("*/*",))),
        (".activities.NewConversationActivity", IntentFilter((A + "SEND_MULTIPLE",), types=("*/*",))),
        SETTINGS,
    ),
    "com.simplemobiletools.filemanager.pro": (
        (".activities.MainActivity", IntentFilter((A + "GET_CONTENT",), (OPENABLE, DEFAULT), types=("*/*",))),
        (".activities.MainActivity", IntentFilter((A + "PICK",), (OPENABLE, DEFAULT), types=("*/*",))),
        (".activities.MainActivity", IntentFilter((A + "CREATE_DOCUMENT",), (OPENABLE, DEFAULT), types=("*/*",))),
        (".activities.MainActivity", IntentFilter((A + "RINGTONE_PICKER",))),
        (".activities.MainActivity", IntentFilter((VIEW,), types=("resource/folder",))),
        (".activities.ReadTextActivity", IntentFilter((VIEW,), types=("text/*",))),
        (".activities.SaveAsActivity", IntentFilter((SEND,), types=("*/*",))),
        SETTINGS,
    ),
    "com.simplemobiletools.gallery.pro": (
        (
            ".activities.MainActivity",
            IntentFilter(
                (A + "PICK",),
                types=("image/*", "video/*", "vnd.android.cursor.dir/image", "vnd.android.cursor.dir/video"),
            ),
        ),
        (
            ".activities.MainActivity",
            IntentFilter(
                (A + "GET_CONTENT",),
                (OPENABLE, DEFAULT),
                types=("image/*", "video/*", "vnd.android.cursor.dir/image", "vnd.android.cursor.dir/video"),
            ),
        ),
        (
            ".activities.ViewPagerActivity",
            IntentFilter(("com.android.camera.action.REVIEW",), (BROWSABLE, DEFAULT), types=("image/*", "video/*")),
        ),
        SETTINGS,
        (".activities.PhotoActivity", IntentFilter((VIEW,), (BROWSABLE, DEFAULT), types=("image/*",))),
        (".activities.VideoActivity", IntentFilter((VIEW,), (BROWSABLE, DEFAULT), types=("video/*",))),
        (".activities.SetWallpaperActivity", IntentFilter((A + "ATTACH_DATA",), types=("image/*",))),
        (".activities.SetWallpaperActivity", IntentFilter((A + "SET_WALLPAPER",))),
    ),
    "com.simplemobiletools.musicplayer": (
        SETTINGS,
        (".activities.TrackActivity", IntentFilter((VIEW,), schemes=("content",), types=AUDIO_TYPES)),
        (".activities.TrackActivity", IntentFilter((VIEW,), schemes=("file",), types=AUDIO_TYPES)),
    ),
    "com.simplemobiletools.voicerecorder": (
        (".activities.MainActivity", IntentFilter(("android.provider.MediaStore.RECORD_SOUND",))),
        SETTINGS,
    ),
    "com.simplemobiletools.notes.pro": (
        (".activities.MainActivity", IntentFilter((SEND,), types=("text/*",))),
        (".activities.MainActivity", IntentFilter((VIEW,), types=("text/*",))),
        SETTINGS,
    ),
    "com.simplemobiletools.calculator": (SETTINGS,),
    "com.simplemobiletools.applauncher": (SETTINGS,),
}


def manifest_filters(packages: PackageManager) -> Iterator[tuple[str, str, IntentFilter]]:
    """(package, activity, filter) of every installed, modelled app: its launcher entry (MAIN and
    LAUNCHER, without DEFAULT, as the apps' launcher aliases declare it), then FILTERS."""
    for package in packages.records:
        model = packages.models.get(package)
        if model is not None and model.label and not model.system:
            yield package, packages.app(package).main_activity.name, IntentFilter((MAIN,), (LAUNCHER,))
    for package, entries in FILTERS.items():
        if packages.is_installed(package) and package in packages.models:
            for activity, intent_filter in entries:
                yield package, activity, intent_filter


def resolve(packages: PackageManager, intent: Intent, default_only: bool = True) -> list[Match]:
    """The activities an implicit intent reaches, in the order the manifests list them.
    `default_only`: as startActivity resolves (MATCH_DEFAULT_ONLY); `pm resolve-activity` does not."""
    mime = intent.type or (provider_type(intent.data) if intent.data else None)
    found = []
    for package, activity, intent_filter in manifest_filters(packages):
        if intent.package and package != intent.package:
            continue
        if default_only and DEFAULT not in intent_filter.categories:
            continue
        if intent_filter.matches(intent, mime):
            match = Match(package, activity)
            if match not in found:
                found.append(match)
    return found


def file_path(uri: str | None) -> str:
    """The path of a file: URI (`file:///sdcard/x` -> `/sdcard/x`)."""
    if not uri or not uri.startswith("file:"):
        return ""
    return unquote(uri.removeprefix("file:").removeprefix("//"))


def _contacts_edit(intent: Intent) -> dict[str, str]:
    """EditContactActivity.initContact/gotContact: EDIT names a contact by its URI; INSERT
    fills a new one from the extras name (any type, as text), phone and email (strings only)."""
    if intent.action == EDIT:
        last = (intent.data or "").rstrip("/").rsplit("/", 1)[-1]
        return {"contact_id": last} if last.isdigit() else {}
    if intent.action != INSERT:
        return {}
    extras: dict[str, str] = {}
    name = intent.extras.get("name")
    if name is not None:  # `extras.get(KEY_NAME).toString()`: any type, as text
        extras["name"] = str(name.value if isinstance(name, Long) else name)
    for key in ("phone", "email"):
        value = intent.string_extra(key)
        if value is not None:
            extras[key] = value
    return extras


def _view_contact(intent: Intent) -> dict[str, str]:
    last = (intent.data or "").rstrip("/").rsplit("/", 1)[-1]
    return {"contact_id": last} if last.isdigit() else {}


def _event(device: Context, intent: Intent) -> dict[str, str]:
    """EventActivity.setupNewEvent: beginTime/endTime are longs (ms, default now), allDay a
    boolean, title/eventLocation/description strings."""
    if intent.action not in (EDIT, INSERT):
        return {}
    now_ms = int(device.clock.now().timestamp() * 1000)
    out = {
        "begin_ts": str(intent.long_extra("beginTime", now_ms) // 1000),
        "end_ts": str(intent.long_extra("endTime", now_ms) // 1000),
        "title": intent.string_extra("title") or "",
        "location": intent.string_extra("eventLocation") or "",
        "description": intent.string_extra("description") or "",
    }
    if intent.bool_extra("allDay"):
        out["all_day"] = "1"
    return out


def _sms_text(intent: Intent) -> str:
    """launchThreadActivity: EXTRA_TEXT, else sms_body."""
    return intent.string_extra("android.intent.extra.TEXT") or intent.string_extra("sms_body") or ""


def _sms_number(uri: str) -> str:
    """isThirdPartyIntent's prefixes, in its order ("mms" before "mmsto:", as the app does)."""
    number = uri
    for prefix in ("sms:", "smsto:", "mms", "mmsto:"):
        number = number.removeprefix(prefix)
    return unquote(number.replace("+", "%2b").strip())


def deliver(device: Context, match: Match, intent: Intent) -> None:
    """Start `match` (a resolved activity) for `intent`, as the real activity reads it."""
    wm, packages = device.wm, device.packages
    app = packages.app(match.package)
    if match.package == "com.android.launcher3":
        wm.home()
        return
    activity = match.activity
    extras: dict[str, str] = {}
    # The file a file: URI names, as the app opens it (/sdcard is shared storage's alias).
    path = device.fs.normalize(file_path(intent.data)) if file_path(intent.data) else ""
    target = activity
    if match.package == "com.simplemobiletools.contacts.pro":
        if activity == ".activities.EditContactActivity":
            extras = _contacts_edit(intent)
        elif activity == ".activities.ViewContactActivity":
            extras = _view_contact(intent)
    elif match.package == "com.simplemobiletools.calendar.pro" and activity == ".activities.EventActivity":
        extras = _event(device, intent)
    elif match.package == "com.simplemobiletools.smsmessenger" and activity == ".activities.NewConversationActivity":
        if intent.action in (SEND, SENDTO, VIEW) and intent.data is not None:
            target, extras = ".activities.ThreadActivity", {"address": _sms_number(intent.data)}
        if _sms_text(intent):
            extras["text"] = _sms_text(intent)
    elif match.package == "com.simplemobiletools.filemanager.pro":
        if activity == ".activities.SaveAsActivity" and "android.intent.extra.STREAM" not in intent.extras:
            wm.toast("An unknown error occurred", match.package)  # SaveAsActivity: no stream, nothing to save
            return
        if activity in (".activities.ReadTextActivity", ".activities.MainActivity") and path:
            extras = {"path": path}
    elif match.package in ("com.simplemobiletools.gallery.pro", "com.simplemobiletools.musicplayer"):
        if path:
            extras = {"path": path}
    elif match.package == "com.simplemobiletools.notes.pro" and intent.action == SEND:
        text = intent.string_extra("android.intent.extra.TEXT")
        if intent.type == "text/plain" and text is not None:
            extras = {"shared_text": text}
    cls = app.activity_class(target)
    if cls is None:  # declared, not modelled (SaveAsActivity with a stream): say so in the log
        device.logd.log("W", "VirtualDevice", f"{match.package}/{target} is not modelled; the intent is dropped")
        return
    started = wm.start_activity(app, cls, extras, launcher=not extras and cls is app.main_activity)
    started.on_intent(extras)
