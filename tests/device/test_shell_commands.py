"""`AndroidDevice.sh` checks what it runs: a command that fails raises ShellCommandError naming
the command, its exit status and its output, unless the caller passes `check=False`."""

from __future__ import annotations

import pytest

from pytest_mobile_agent.device.android import AndroidDevice, shell_quote
from pytest_mobile_agent.errors import PreconditionError, ShellCommandError, TaskError
from pytest_mobile_agent.virtual import VirtualDevice

UNQUOTED = "content insert --uri content://sms/inbox --bind address:s:5550123 --bind 'body:s:Hi, it's Dana'"


@pytest.fixture
def dev(vdevice: VirtualDevice) -> AndroidDevice:
    return AndroidDevice(vdevice.serial)


def test_a_command_that_works_gives_its_output_alone(dev: AndroidDevice) -> None:
    assert dev.sh("echo ok; echo two") == "ok\ntwo\n"  # no status marker left in it
    assert dev.sh_status("ls /sdcard/Download >/dev/null; false") == (1, "")


@pytest.mark.parametrize(
    "command, status, said",
    [
        (UNQUOTED, None, "syntax error: unterminated quoted string"),
        ("nosuchcommand --flag", 127, "nosuchcommand: inaccessible or not found"),
        ("ls /sdcard/no-such-folder", 1, "No such file or directory"),
        ("content insert --uri content://nope --bind a:s:b", 1, "Error while accessing provider"),
        # Joined with `;`, the last command's status is 0: the shell's message still tells.
        ("content insert --uri content://nope --bind a:s:b; echo after", 0, "Error while accessing provider"),
    ],
    ids=["syntax-error", "not-found", "status", "provider-error", "message-after-joined"],
)
def test_a_failed_command_raises_naming_command_status_and_output(
    dev: AndroidDevice, command: str, status: int | None, said: str
) -> None:
    with pytest.raises(ShellCommandError) as raised:
        dev.sh(command)
    error = raised.value
    assert (error.command, error.status, error.serial) == (command, status, dev.serial)
    assert said in error.output and said in str(error) and command in str(error)
    assert isinstance(error, TaskError)  # counted neither for nor against the agent
    assert dev.sh(command, check=False).find(said) >= 0  # the caller who expects failure gets the output


def test_shell_quote_keeps_an_apostrophe_in_one_word(dev: AndroidDevice) -> None:
    body = "Hi, it's Dana"
    dev.sh("content delete --uri content://sms --where \"address='5550999'\"")
    dev.sh(f"content insert --uri content://sms/inbox --bind address:s:5550999 --bind {shell_quote('body:s:' + body)}")
    rows = dev.sh("content query --uri content://sms --projection body --where \"address='5550999'\"")
    assert rows.strip() == f"Row: 0 body={body}"
    dev.sh("content delete --uri content://sms --where \"address='5550999'\"")


def test_precondition_error_is_a_task_error() -> None:
    assert issubclass(PreconditionError, TaskError) and issubclass(ShellCommandError, TaskError)
