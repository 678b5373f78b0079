"""The ten Simple Mobile Tools apps: package names, names as the launcher shows them, resource ids."""

CALCULATOR = "com.simplemobiletools.calculator"
CALENDAR = "com.simplemobiletools.calendar.pro"
CONTACTS = "com.simplemobiletools.contacts.pro"
FILE_MANAGER = "com.simplemobiletools.filemanager.pro"
GALLERY = "com.simplemobiletools.gallery.pro"
APP_LAUNCHER = "com.simplemobiletools.applauncher"
SMS_MESSENGER = "com.simplemobiletools.smsmessenger"
MUSIC_PLAYER = "com.simplemobiletools.musicplayer"
NOTES = "com.simplemobiletools.notes.pro"
VOICE_RECORDER = "com.simplemobiletools.voicerecorder"

# The apps' names as their launcher icons show them (English).
APP_NAMES = {
    APP_LAUNCHER: "App Launcher",
    CALCULATOR: "Calculator",
    CALENDAR: "Calendar",
    CONTACTS: "Contacts",
    FILE_MANAGER: "File Manager",
    GALLERY: "Gallery",
    MUSIC_PLAYER: "Music Player",
    NOTES: "Notes",
    SMS_MESSENGER: "SMS Messenger",
    VOICE_RECORDER: "Voice Recorder",
}


def rid(package: str, name: str) -> str:
    return f"{package}:id/{name}"
