"""A snapshot restore puts back every kind of state a task can leave behind, through the same
console and adb paths the plugin uses (`avd snapshot load` on the device's emulator console)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_mobile_agent import Tap
from pytest_mobile_agent.device.android import AndroidDevice
from pytest_mobile_agent.device.reset import EmulatorConsole, console_port
from pytest_mobile_agent.virtual import virtual_devices

CALC = "com.simplemobiletools.calculator"
CONTACTS_URI = "content://com.android.contacts/raw_contacts"
PREFS = f"/data/data/{CALC}/files/prefs.json"


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("home")
    (path / ".emulator_console_auth_token").write_text("tok")
    return path


@pytest.fixture(scope="module")
def setup(home: Path) -> Iterator[tuple[AndroidDevice, EmulatorConsole]]:
    """A device with some seeded state, saved as snapshot `base`."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HOME", str(home))
        with virtual_devices(1) as (vdev,):
            dev = AndroidDevice(vdev.serial)
            port = console_port(vdev.serial)
            assert port is not None
            console = EmulatorConsole(port, home=home)
            dev.push(b"meeting at nine\n", "/sdcard/Download/notes.txt")
            dev.sh(f"content insert --uri {CONTACTS_URI} --bind display_name:s:Ann")
            dev.sh("content insert --uri content://sms/inbox --bind address:s:5550100 --bind body:s:hello")
            dev.push(b'{"vibrate_on_keypress": true}', PREFS)
            console.command("avd snapshot save base")
            try:
                yield dev, console
            finally:
                console.close()


def digest(dev: AndroidDevice) -> dict[str, str]:
    """The state the test compares, all read through adb."""
    return {
        "sdcard": dev.sh("ls -a /sdcard /sdcard/Download", check=False),
        "app data": dev.sh(f"ls -a /data/data/{CALC} /data/data/{CALC}/files", check=False),
        "contacts": dev.sh(f"content query --uri {CONTACTS_URI} --projection _id:display_name:deleted"),
        "sms": dev.sh("content query --uri content://sms --projection _id:address:body"),
        "prefs": dev.sh(f"cat {PREFS}", check=False),
        "notes": dev.sh("cat /sdcard/Download/notes.txt", check=False),
        "focus": dev.sh("dumpsys window displays | grep mCurrentFocus", check=False),
        "clock": dev.sh("date +%s"),
        "setting": dev.sh("settings get system font_scale"),
    }


def test_restore_undoes_every_kind_of_change(setup: tuple[AndroidDevice, EmulatorConsole]) -> None:
    dev, console = setup
    console.command("avd snapshot load base")
    before = digest(dev)
    dev.sh("echo x > /sdcard/.hidden")  # a hidden file
    dev.sh("mv /sdcard/Download/notes.txt /sdcard/Download/.notes.txt")  # a file hidden, not deleted
    dev.sh(f"content update --uri {CONTACTS_URI} --bind display_name:s:Bob --where \"display_name='Ann'\"")
    dev.sh(f"content insert --uri {CONTACTS_URI} --bind display_name:s:Zed")  # a contact row
    dev.sh("content insert --uri content://sms/sent --bind address:s:5550100 --bind body:s:again")  # an SMS
    dev.sh(f"echo '{{\"vibrate_on_keypress\": false}}' > {PREFS}")  # app prefs
    dev.sh(f"echo new > /data/data/{CALC}/files/extra.txt")  # a new app data file
    dev.sh(f"monkey -p {CALC} -c android.intent.category.LAUNCHER 1")  # the window stack
    dev.sh("date -s 2030-01-01T00:00:00")  # the clock
    dev.sh("settings put system font_scale 1.3")  # a setting
    changed = digest(dev)
    assert [k for k in before if changed[k] == before[k]] == [], "each change must show first"
    console.command("avd snapshot load base")
    assert digest(dev) == before


def test_a_same_size_write_in_the_snapshots_own_timestamp_tick_is_undone(tmp_path: Path) -> None:
    """A file written just before the snapshot and again just after with the same size. On a
    filesystem with coarse timestamps its signature would not move (the bytes are compared then);
    kernels with fine-grained timestamps (this machine's 6.x) show the change in the signature."""
    from pytest_mobile_agent.virtual.boot import boot
    from pytest_mobile_agent.virtual.core.config import DeviceConfig
    from pytest_mobile_agent.virtual.system import snapshot

    device = boot(tmp_path, DeviceConfig())
    try:
        path = tmp_path / "storage/emulated/0/Download/n.txt"
        path.write_bytes(b"aaaa")
        snap = snapshot.take(device, "t")
        path.write_bytes(b"bbbb")  # microseconds later: the same coarse timestamp
        stats = snapshot.restore(device, snap)
        assert path.read_bytes() == b"aaaa" and stats.rewritten == 1
        assert snapshot.restore(device, snap).rewritten == 0  # and nothing more the next time
    finally:
        device.shutdown()


def test_a_same_size_rewrite_right_after_a_restore_is_still_undone(
    setup: tuple[AndroidDevice, EmulatorConsole],
) -> None:
    """Within one filesystem timestamp tick, size and mtime cannot tell; the bytes are compared."""
    dev, console = setup
    console.command("avd snapshot load base")
    dev.sh("echo 'MEETING AT NINE' > /sdcard/Download/notes.txt")  # same size, same tick maybe
    console.command("avd snapshot load base")
    assert dev.sh("cat /sdcard/Download/notes.txt", check=False) == "meeting at nine\n"


def test_a_running_app_is_dropped_and_reloads_from_its_restored_data(
    setup: tuple[AndroidDevice, EmulatorConsole],
) -> None:
    dev, console = setup
    console.command("avd snapshot load base")
    dev.launch(CALC)
    for key in ("7", "×", "6"):
        dev.execute(Tap(text=key), dev.ui())
    assert "7×6" in dev.dump()
    console.command("avd snapshot load base")
    assert "launcher" in dev.sh("dumpsys window displays | grep mCurrentFocus", check=False)
    dev.launch(CALC)
    assert "7×6" not in dev.dump()  # a fresh app object, not the one left running


def test_a_directory_made_by_the_task_goes_and_one_it_removed_comes_back(
    setup: tuple[AndroidDevice, EmulatorConsole],
) -> None:
    dev, console = setup
    console.command("avd snapshot load base")
    dev.sh("mkdir -p /sdcard/Pictures/Trip/day1 && echo a > /sdcard/Pictures/Trip/day1/a.jpg")
    dev.sh("rm -r /sdcard/Download")
    console.command("avd snapshot load base")
    assert "Trip" not in dev.sh("ls /sdcard/Pictures")
    assert dev.sh("cat /sdcard/Download/notes.txt", check=False) == "meeting at nine\n"


def test_a_folder_replaced_by_a_file_and_a_read_only_file_come_back(tmp_path: Path) -> None:
    from pytest_mobile_agent.virtual.boot import boot
    from pytest_mobile_agent.virtual.core.config import DeviceConfig
    from pytest_mobile_agent.virtual.system import snapshot

    device = boot(tmp_path, DeviceConfig())
    try:
        music = tmp_path / "storage/emulated/0/Music"
        (music / "a.mp3").write_bytes(b"song")
        snap = snapshot.take(device, "t")
        (music / "a.mp3").unlink()
        music.rmdir()
        music.write_bytes(b"not a folder")
        ringtone = tmp_path / "storage/emulated/0/Ringtones/r.ogg"
        ringtone.write_bytes(b"new")
        ringtone.chmod(0o444)
        snapshot.restore(device, snap)
        assert (music / "a.mp3").read_bytes() == b"song"
        assert not ringtone.exists()
        (music / "a.mp3").write_bytes(b"edit")
        (music / "a.mp3").chmod(0o444)  # a changed file left read-only
        snapshot.restore(device, snap)
        assert (music / "a.mp3").read_bytes() == b"song"
        assert os.stat(music / "a.mp3").st_mode & 0o777 == snap.files["storage/emulated/0/Music/a.mp3"].mode
    finally:
        device.shutdown()


def test_folders_get_their_modification_times_back(setup: tuple[AndroidDevice, EmulatorConsole]) -> None:
    """File Manager shows and sorts folders by their mtimes: a folder removed and made again, and
    one whose entries came and went, read as they did in the snapshot."""
    dev, console = setup
    console.command("avd snapshot load base")
    listing = "stat -c '%n %y' /sdcard /sdcard/Alarms /sdcard/Music"
    before = dev.sh(listing)
    dev.sh("rm -r /sdcard/Alarms && mkdir /sdcard/Alarms && touch /sdcard/Music/x && rm /sdcard/Music/x")
    assert dev.sh(listing) != before, "the changes must move the folders' times first"
    console.command("avd snapshot load base")
    assert dev.sh(listing) == before
