"""The state every query starts from: the home screen of a device with a known set of files,
no contacts and no conversations but a task's own, and the apps it uses opened once (as on
Mobile-Bench's snapshot, where each app was past its first start: Notes' default note made,
the File Manager granted all-files access).
"""

from __future__ import annotations

import pytest

from pytest_mobile_agent import Key
from pytest_mobile_agent.errors import PreconditionError
from pytest_mobile_agent.tasks import spec_of
from task_suites.shared.apps import FILE_MANAGER, NOTES
from task_suites.shared.audio import mp3
from task_suites.shared.media import image_bytes
from task_suites.shared.reading import app_data, ignore_bookkeeping
from task_suites.shared.seeds import clear_contacts, clear_conversations, push_files, run_in_app

# Media on the device: (path, content). Contents differ, so no two files hash alike; the dunes
# were shot with the phone upright (EXIF orientation 6).
FILES = (
    ("/sdcard/Pictures/beach.jpg", image_bytes("beach.jpg")),
    ("/sdcard/DCIM/dunes.jpg", image_bytes("dunes.jpg", rotated=True)),
    ("/sdcard/Music/sunrise.mp3", mp3("sunrise", "Morning Choir", "Daybreak")),
    ("/sdcard/Music/rain.mp3", mp3("rain", "Storm Quartet", "Weather")),
    ("/sdcard/Download/todo.txt", b"milk\n"),
)
MANAGE_STORAGE = "android.permission.MANAGE_EXTERNAL_STORAGE"


@pytest.fixture(autouse=True)
def start_state(request, device, changes):
    ignore_bookkeeping(changes)
    clear_contacts(device)
    clear_conversations(device)
    push_files(device, FILES)
    device.sh(f"pm grant {FILE_MANAGER} {MANAGE_STORAGE}")
    spec = spec_of(request.function)
    for package in spec.apps if spec else ():
        run_in_app(device, package, [])
    device.execute(Key("home"), None)


def seed_note(device, title: str, text: str) -> None:
    """A text note made through Notes' own screens (its notes are app-private), then home."""
    from task_suites.mobilebench.paths import note

    run_in_app(device, NOTES, note(title, text))
    device.execute(Key("home"), None)
    notes = app_data(device, NOTES, "notes")
    made = [n for n in notes or [] if isinstance(n, dict) and n.get("title") == title and n.get("value") == text]
    if len(made) != 1:
        raise PreconditionError(f"precondition: the note {title!r} ({text!r}) is not in Notes' notes.json: {notes}")


def pytest_collection_modifyitems(items):
    """Each query is marked with its kind, from its file: `-m sast`, `-m "samt or mamt"`."""
    for item in items:
        kind = item.path.stem.removeprefix("test_")
        if item.path.parent.name == "mobilebench" and kind in ("sast", "samt", "mamt"):
            item.add_marker(kind)


def pytest_configure(config):
    for kind, what in (
        ("sast", "single app, single task"),
        ("samt", "single app, several tasks"),
        ("mamt", "several apps, several tasks"),
    ):
        config.addinivalue_line("markers", f"{kind}: a Mobile-Bench-style {what} query (task_suites/mobilebench)")
