"""A terminal only where adbd gives one: `shell:CMD` and `exec:CMD` run raw (Android 7 and
later), a bare `shell:` and `shell,pty:CMD` get a terminal. So `uiautomator dump /dev/tty`
prints the hierarchy only in a pty session, as on a phone."""

from __future__ import annotations

import adbutils


def open_service(adbd: adbutils.AdbDevice, service: str) -> str:
    conn = adbd.open_transport()
    conn.send_command(service)
    conn.check_okay()
    out = conn.read_until_close()
    conn.close()
    return out


def test_a_command_runs_without_a_terminal(adbd: adbutils.AdbDevice) -> None:
    assert open_service(adbd, "shell:uiautomator dump /dev/tty") == "UI hierchary dumped to: /dev/tty\n"
    assert open_service(adbd, "exec:uiautomator dump /dev/tty") == "UI hierchary dumped to: /dev/tty\n"
    assert "No such device or address" in open_service(adbd, "shell:echo hi >/dev/tty")


def test_a_pty_session_has_its_terminal(adbd: adbutils.AdbDevice) -> None:
    out = open_service(adbd, "shell,pty:uiautomator dump /dev/tty")
    assert out.startswith("<?xml") and out.endswith("</hierarchy>UI hierchary dumped to: /dev/tty\r\n")
    assert open_service(adbd, "shell,pty:echo hi >/dev/tty") == "hi\r\n"


def test_a_terminal_ends_lines_with_cr_lf_and_carries_stderr_on_stdout(adbd: adbutils.AdbDevice) -> None:
    """The tty's `onlcr`: a script reading `adb shell -t` output splits on CR LF, as on a phone;
    a shell v2 pty session sends stderr on the stdout channel (one terminal)."""
    assert open_service(adbd, "shell,pty:echo a; echo b") == "a\r\nb\r\n"
    assert open_service(adbd, "shell:echo a; echo b") == "a\nb\n"
    v2 = adbd.open_transport()
    v2.send_command("shell,v2,pty:ls /nonexistent")
    v2.check_okay()
    frames = v2.read_until_close(encoding=None)
    v2.close()
    assert frames[0] == 1 and b"No such file or directory\r\n" in frames  # id 1: stdout
