"""Package names of the benchmark's apps."""

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


def rid(package: str, name: str) -> str:
    return f"{package}:id/{name}"
