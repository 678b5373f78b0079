"""The virtual device's `sh`: parsing, execution and the file and text commands."""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path

import pytest

from pytest_mobile_agent.virtual.core.fs import FileSystem
from pytest_mobile_agent.virtual.shell import interactive, run_script
from pytest_mobile_agent.virtual.shell.api import COMMANDS, BufferOutput, CommandContext, Input
from pytest_mobile_agent.virtual.shell.language.parser import ShellSyntaxError, parse


class FakeDevice:
    def __init__(self, root: Path) -> None:
        self.fs = FileSystem(root)
        self.lock = threading.RLock()
        self.props = {"ro.product.device": "generic_x86_64"}


@pytest.fixture
def device(tmp_path: Path) -> FakeDevice:
    return FakeDevice(tmp_path / "root")


def sh(device: FakeDevice, script: str, stdin: bytes = b"") -> tuple[int, str, str]:
    out, err = BufferOutput(), BufferOutput()
    status = run_script(device, script, Input(stdin, closed=True), out, err)
    return status, out.data.decode(), err.data.decode()


def merged(device: FakeDevice, script: str) -> tuple[int, str]:
    """stdout and stderr on one stream, as the legacy `shell:` service delivers them."""
    both = BufferOutput()
    status = run_script(device, script, Input(b"", closed=True), both, both)
    return status, both.data.decode()


# --- parsing and execution -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        ("echo hi", "hi\n"),
        ("echo 'a  b' \"c  d\" e\\ f", "a  b c  d e f\n"),
        ("echo 'no $HOME here'", "no $HOME here\n"),
        ('echo "home=$HOME" "${HOME}x"', "home=/ /x\n"),
        ('echo "a\\"b" "c\\$d" "e\\\\f" "g\\h"', 'a"b c$d e\\f g\\h\n'),
        ("echo a\\'b", "a'b\n"),
        ("echo a#b # a comment", "a#b\n"),
        ("echo ''", "\n"),
        ('X=1; echo $X ${X}2 "$X"', "1 12 1\n"),
        ("X='a  b'; echo $X; echo \"$X\"", "a b\na  b\n"),
        ("echo ${UNSET:-dflt} ${HOME:+set} ${#HOME}", "dflt set 1\n"),
        ("echo $(echo inner) `echo back`", "inner back\n"),
        ("echo $((2 + 3 * 4)) $((7 / 2)) $((-7 % 3))", "14 3 -1\n"),
        ("echo one; echo two", "one\ntwo\n"),
        ("echo one\necho two", "one\ntwo\n"),
        ("true && echo yes", "yes\n"),
        ("false && echo yes", ""),
        ("false || echo no", "no\n"),
        ("true || echo no", ""),
        ("false && echo a || echo b", "b\n"),
        ("echo abc | grep b", "abc\n"),
        ("printf 'b\\na\\nc\\n' | sort | head -n 2", "a\nb\n"),
        ("! false && echo negated", "negated\n"),
        ("if true; then echo t; else echo f; fi", "t\n"),
        ("if false; then echo t; elif true; then echo e; fi", "e\n"),
        ("for x in a b c; do echo $x; done", "a\nb\nc\n"),
        ("i=0; while [ $i -lt 3 ]; do i=$((i+1)); echo $i; done", "1\n2\n3\n"),
        ("for x in 1 2 3; do if [ $x = 2 ]; then break; fi; echo $x; done", "1\n"),
        ("{ echo a; echo b; } | wc -l", "2\n"),
        ("(cd /sdcard; pwd); pwd", "/sdcard\n/\n"),
        ("cat <<EOF\nhi $HOME\nEOF", "hi /\n"),
        ("cat <<'EOF'\nhi $HOME\nEOF", "hi $HOME\n"),
        ("sh -c 'echo $0 $1' zero one", "zero one\n"),
        ("eval 'echo evaluated'", "evaluated\n"),
    ],
)
def test_scripts(device: FakeDevice, script: str, expected: str) -> None:
    status, out, err = sh(device, script)
    assert (out, err) == (expected, "")


@pytest.mark.parametrize(
    ("script", "status"),
    [
        ("true", 0),
        ("false", 1),
        ("exit 3", 3),
        ("exit 300", 44),
        ("echo a; exit 7; echo b", 7),
        ("sh -c 'exit 5'", 5),
        ("false; true", 0),
        ("true; false", 1),
        ("", 0),
        ("# only a comment", 0),
        ("nosuchcommand", 127),
        ("/system/bin/nosuch", 127),
        ("! true", 1),
    ],
)
def test_exit_statuses(device: FakeDevice, script: str, status: int) -> None:
    assert sh(device, script)[0] == status


def test_dollar_question(device: FakeDevice) -> None:
    assert sh(device, "false; echo $?; true; echo $?")[1] == "1\n0\n"
    assert sh(device, "nosuch 2>/dev/null; echo $?")[1] == "127\n"
    assert sh(device, "false; A=1; echo $?")[1] == "0\n"
    assert sh(device, "A=$(false); echo $?")[1] == "1\n"


def test_unknown_command_message(device: FakeDevice) -> None:
    status, out, err = sh(device, "frobnicate --now")
    assert (status, out) == (127, "")
    assert err == "/system/bin/sh: frobnicate: inaccessible or not found\n"


def test_adbutils_exit_wrapper(device: FakeDevice) -> None:
    # adbutils' legacy shell appends this and parses the last line.
    status, text = merged(device, "ls /nowhere ; echo X4EXIT:$?")
    assert status == 0
    assert text == "ls: /nowhere: No such file or directory\nX4EXIT:1\n"
    assert merged(device, "nosuch ; echo X4EXIT:$?")[1].endswith("\nX4EXIT:127\n")
    assert merged(device, "echo hi ; echo X4EXIT:$?")[1] == "hi\nX4EXIT:0\n"


@pytest.mark.parametrize(
    ("script", "message"),
    [
        ("echo a |", "syntax error: unexpected EOF"),
        ("echo 'open", "syntax error: unterminated quoted string"),
        ('echo "open', "syntax error: unterminated quoted string"),
        ("; echo a", "syntax error: ';' unexpected"),
        ("echo a && && echo b", "syntax error: '&&' unexpected"),
        ("| cat", "syntax error: '|' unexpected"),
        ("echo a >", "syntax error: unexpected EOF"),
        ("echo a > ;", "syntax error: ';' unexpected"),
        ("fi", "syntax error: 'fi' unexpected"),
        ("if true; then echo a", "syntax error: unexpected EOF"),
        ("echo )", "syntax error: ')' unexpected"),
    ],
)
def test_syntax_errors(device: FakeDevice, script: str, message: str) -> None:
    status, out, err = sh(device, script)
    assert (status, out) == (1, "")
    assert err == f"/system/bin/sh: {message}\n"


def test_syntax_error_runs_nothing(device: FakeDevice) -> None:
    assert sh(device, "echo first; echo a |") == (1, "", "/system/bin/sh: syntax error: unexpected EOF\n")


def test_parse_is_cached() -> None:
    assert parse("echo cached") is parse("echo cached")
    with pytest.raises(ShellSyntaxError) as info:
        parse("echo 'x")
    assert info.value.incomplete


def test_globbing(device: FakeDevice) -> None:
    sh(device, "touch /sdcard/b.txt /sdcard/a.txt /sdcard/c.log /sdcard/.hidden.txt")
    assert sh(device, "echo /sdcard/*.txt")[1] == "/sdcard/a.txt /sdcard/b.txt\n"
    assert sh(device, "cd /sdcard && echo ?.log")[1] == "c.log\n"
    assert sh(device, "echo '/sdcard/*.txt' /sdcard/*.none")[1] == "/sdcard/*.txt /sdcard/*.none\n"
    assert sh(device, 'P="/sdcard/*.log"; echo $P "$P"')[1] == "/sdcard/c.log /sdcard/*.log\n"


# --- redirections ---------------------------------------------------------------------------


def test_redirect_to_files(device: FakeDevice) -> None:
    assert sh(device, "echo one > /sdcard/r.txt; echo two >> /sdcard/r.txt")[0] == 0
    assert device.fs.read("/storage/emulated/0/r.txt") == b"one\ntwo\n"
    assert sh(device, "cat < /sdcard/r.txt")[1] == "one\ntwo\n"
    assert sh(device, "echo three 1>/sdcard/r.txt; cat /sdcard/r.txt")[1] == "three\n"
    assert sh(device, "cd /data/local/tmp; echo rel > f; cat /data/local/tmp/f")[1] == "rel\n"


def test_redirect_stderr(device: FakeDevice) -> None:
    assert sh(device, "cat /nope 2>/dev/null") == (1, "", "")
    assert sh(device, "cat /nope 2>&1") == (1, "cat: /nope: No such file or directory\n", "")
    assert sh(device, "cat /nope 2>/sdcard/e.txt; cat /sdcard/e.txt")[1] == ("cat: /nope: No such file or directory\n")
    assert sh(device, "echo hi >&2") == (0, "", "hi\n")
    assert sh(device, "echo hi >/dev/null") == (0, "", "")
    assert sh(device, "echo hi &>/dev/null") == (0, "", "")
    assert sh(device, "echo hi 3>/dev/null") == (0, "hi\n", "")


def test_redirect_order(device: FakeDevice) -> None:
    # `>f 2>&1`: both go to f. `2>&1 >f`: stderr goes where stdout was, stdout to f.
    assert sh(device, "cat /nope >/sdcard/o 2>&1; cat /sdcard/o")[1] == ("cat: /nope: No such file or directory\n")
    status, out, err = sh(device, "cat /nope 2>&1 >/sdcard/o2")
    assert (out, err) == ("cat: /nope: No such file or directory\n", "")
    assert device.fs.read("/sdcard/o2") == b""
    assert sh(device, "cat /nope 2>&1 | wc -l")[1] == "1\n"
    assert sh(device, "cat /nope | wc -l") == (0, "0\n", "cat: /nope: No such file or directory\n")


def test_redirect_errors(device: FakeDevice) -> None:
    status, out, err = sh(device, "echo hi > /no/such/dir/f; echo $?")
    assert out == "1\n"
    assert err == "/system/bin/sh: can't create /no/such/dir/f: No such file or directory\n"
    assert sh(device, "cat < /missing")[2] == ("/system/bin/sh: can't open /missing: No such file or directory\n")
    assert sh(device, "echo x > /sdcard")[0] == 1


def test_dev_tty_is_the_terminal_of_a_pty_session(device: FakeDevice) -> None:
    out, err = BufferOutput(), BufferOutput()
    status = run_script(device, "echo direct >/dev/tty | wc -c", Input(b"", closed=True), out, err, tty=True)
    assert (status, out.data, err.data) == (0, b"direct\n0\n", b"")


def test_a_raw_session_has_no_dev_tty(device: FakeDevice) -> None:
    """adbd runs `shell:CMD` raw since Android 7: opening /dev/tty fails (ENXIO)."""
    assert sh(device, "echo direct >/dev/tty; echo $?") == (
        0,
        "1\n",
        "/system/bin/sh: can't create /dev/tty: No such device or address\n",
    )


def test_stdin_reaches_commands(device: FakeDevice) -> None:
    assert sh(device, "cat", stdin=b"piped\n")[1] == "piped\n"
    assert sh(device, "wc -l", stdin=b"a\nb\n")[1] == "2\n"
    assert sh(device, "sh", stdin=b"echo from-stdin; exit 4") == (4, "from-stdin\n", "")


def test_background_job_does_not_block(device: FakeDevice) -> None:
    out = BufferOutput()
    status = run_script(device, "sleep 0.01 & echo now", Input(b"", closed=True), out, out)
    assert (status, bytes(out.data)) == (0, b"now\n")


# --- commands from elsewhere in the device ---------------------------------------------------


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[CommandContext]:
    """Registers stand-ins for the Android commands other modules provide."""
    seen: list[CommandContext] = []

    def dump(ctx: CommandContext) -> int:
        seen.append(ctx)
        ctx.device.fs.write(ctx.device.fs.normalize(ctx.argv[-1], ctx.cwd), b"<hierarchy/>")
        ctx.out(f"UI hierchary dumped to: {ctx.argv[-1]}\n")
        return 0

    def app_process(ctx: CommandContext) -> int:
        seen.append(ctx)
        return 0

    def boom(ctx: CommandContext) -> int:
        raise RuntimeError("exploded")

    monkeypatch.setitem(COMMANDS, "fakedump", dump)
    monkeypatch.setitem(COMMANDS, "app_process", app_process)
    monkeypatch.setitem(COMMANDS, "boom", boom)
    return seen


def test_adbutils_dump_line(device: FakeDevice, calls: list[CommandContext]) -> None:
    device.fs.write("/data/local/tmp/uidump.xml", b"stale")
    script = "rm -f /data/local/tmp/uidump.xml; fakedump /data/local/tmp/uidump.xml && echo success"
    status, out, err = sh(device, script)
    assert (status, err) == (0, "")
    assert out.endswith("success\n")
    assert device.fs.read("/data/local/tmp/uidump.xml") == b"<hierarchy/>"


def test_androidviewclient_dump_line(device: FakeDevice, calls: list[CommandContext]) -> None:
    script = (
        "cp /dev/null /sdcard/window_dump.xml && fakedump --compressed /sdcard/window_dump.xml"
        " >/dev/null && cat /sdcard/window_dump.xml"
    )
    assert sh(device, script) == (0, "<hierarchy/>", "")
    assert calls[0].argv == ["fakedump", "--compressed", "/sdcard/window_dump.xml"]


def test_assignment_prefix_is_the_commands_env(device: FakeDevice, calls: list[CommandContext]) -> None:
    script = "CLASSPATH=/data/local/tmp/u2.jar app_process / com.wetest.uia2.Main -p 9008"
    assert sh(device, script) == (0, "", "")
    ctx = calls[0]
    assert ctx.argv == ["app_process", "/", "com.wetest.uia2.Main", "-p", "9008"]
    assert ctx.env["CLASSPATH"] == "/data/local/tmp/u2.jar"
    assert sh(device, "CLASSPATH=x true; echo ${CLASSPATH:-unset}")[1] == "unset\n"


def test_failing_command_is_contained(device: FakeDevice, calls: list[CommandContext]) -> None:
    assert sh(device, "boom; echo $?") == (0, "1\n", "boom: exploded\n")


def test_path_to_system_binary(device: FakeDevice) -> None:
    assert sh(device, "/system/bin/echo via-path")[1] == "via-path\n"
    assert sh(device, "/system/bin/sh -c 'echo nested'")[1] == "nested\n"


def test_script_file_runs(device: FakeDevice) -> None:
    device.fs.write("/data/local/tmp/s.sh", b"echo script $1\nexit 2\n")
    assert sh(device, "sh /data/local/tmp/s.sh arg") == (2, "script arg\n", "")
    assert sh(device, "/data/local/tmp/s.sh x")[:2] == (2, "script x\n")


# --- builtins --------------------------------------------------------------------------------


def test_cd_and_pwd(device: FakeDevice) -> None:
    assert sh(device, "pwd; cd /sdcard/Download; pwd; cd ..; pwd")[1] == ("/\n/sdcard/Download\n/sdcard\n")
    assert sh(device, "cd /nope")[:1] + sh(device, "cd /nope")[2:] == (
        1,
        "/system/bin/sh: cd: /nope: No such file or directory\n",
    )
    assert sh(device, "cd ../../..; pwd")[1] == "/\n"


def test_export_unset_and_env(device: FakeDevice) -> None:
    assert sh(device, "export A=1 B; echo $A; unset A; echo [$A]")[1] == "1\n[]\n"
    assert sh(device, "FOO=bar env | grep FOO")[1] == "FOO=bar\n"
    assert sh(device, "command -v ls; which nosuch; echo $?")[1] == "/system/bin/ls\n1\n"


def test_sleep(device: FakeDevice) -> None:
    assert sh(device, "sleep 0.01") == (0, "", "")
    assert sh(device, "sleep abc")[0] == 1


# --- file commands -------------------------------------------------------------------------


def test_ls(device: FakeDevice) -> None:
    sh(device, "mkdir /sdcard/d; touch /sdcard/d/b /sdcard/d/a /sdcard/d/.h")
    assert sh(device, "ls /sdcard/d") == (0, "a\nb\n", "")
    assert sh(device, "ls -a /sdcard/d")[1] == ".\n..\n.h\na\nb\n"
    assert sh(device, "ls -1 /sdcard/d/a")[1] == "/sdcard/d/a\n"
    assert sh(device, "ls /x") == (1, "", "ls: /x: No such file or directory\n")
    assert sh(device, "ls /x /sdcard/d/a")[:2] == (1, "/sdcard/d/a\n")
    assert sh(device, "cd /sdcard/d; ls")[1] == "a\nb\n"
    long = sh(device, "ls -l /sdcard/d")[1].splitlines()
    assert long[0].startswith("total ")
    assert long[1].startswith("-rw") and long[1].endswith(" a")
    assert " 0 " in long[1]
    assert sh(device, "mkdir /sdcard/d/sub; touch /sdcard/d/sub/c; ls -R /sdcard/d")[1] == (
        "/sdcard/d:\na\nb\nsub\n\n/sdcard/d/sub:\nc\n"
    )


def test_cat(device: FakeDevice) -> None:
    device.fs.write("/sdcard/one", b"1\n")
    device.fs.write("/sdcard/two", b"2\n")
    assert sh(device, "cat /sdcard/one /sdcard/two") == (0, "1\n2\n", "")
    assert sh(device, "cat /sdcard/one /missing /sdcard/two") == (
        1,
        "1\n2\n",
        "cat: /missing: No such file or directory\n",
    )
    assert sh(device, "cat /sdcard")[2] == "cat: /sdcard: Is a directory\n"
    assert sh(device, "echo in | cat - /sdcard/one")[1] == "in\n1\n"


def test_rm(device: FakeDevice) -> None:
    sh(device, "touch /sdcard/f; mkdir -p /sdcard/t/u; touch /sdcard/t/u/x")
    assert sh(device, "rm /sdcard/f; ls /sdcard/f")[0] == 1
    assert sh(device, "rm /sdcard/f") == (1, "", "rm: /sdcard/f: No such file or directory\n")
    assert sh(device, "rm -f /sdcard/f") == (0, "", "")
    assert sh(device, "rm /sdcard/t")[0] == 1
    assert sh(device, "rm -rf /sdcard/t; ls /sdcard/t")[0] == 1
    assert sh(device, "rm -rf /")[0] == 1
    assert device.fs.exists("/sdcard/Download")


def test_mkdir(device: FakeDevice) -> None:
    assert sh(device, "mkdir /sdcard/m") == (0, "", "")
    assert sh(device, "mkdir /sdcard/m") == (1, "", "mkdir: /sdcard/m: File exists\n")
    assert sh(device, "mkdir /sdcard/a/b")[0] == 1
    assert sh(device, "mkdir -p /sdcard/a/b && ls /sdcard/a")[1] == "b\n"


def test_cp_mv_touch(device: FakeDevice) -> None:
    device.fs.write("/sdcard/src", b"data")
    assert sh(device, "cp /sdcard/src /sdcard/dst && cat /sdcard/dst")[1] == "data"
    assert sh(device, "cp /sdcard/src /sdcard/Download && cat /sdcard/Download/src")[1] == "data"
    assert sh(device, "cp /missing /sdcard/x")[2] == "cp: /missing: No such file or directory\n"
    assert sh(device, "cp /sdcard/Download /sdcard/D2")[0] == 1
    assert sh(device, "cp -r /sdcard/Download /sdcard/D2 && ls /sdcard/D2")[1] == "src\n"
    assert sh(device, "mv /sdcard/dst /sdcard/moved; ls /sdcard/dst; cat /sdcard/moved")[1] == "data"
    assert sh(device, "mv /nope /sdcard/x")[0] == 1
    assert sh(device, "touch /sdcard/new; ls /sdcard/new")[1] == "/sdcard/new\n"
    assert sh(device, "touch /no/dir/x")[2] == "touch: /no/dir/x: No such file or directory\n"
    assert sh(device, "cp /dev/null /sdcard/src; cat /sdcard/src; echo $?")[1] == "0\n"


def test_touch_sets_the_times_it_is_given(device: FakeDevice) -> None:
    def times(path: str) -> str:
        return sh(device, f"stat -c '%X %Y' {path}")[1].strip()

    assert sh(device, "touch -d @1700000000 /sdcard/a") == (0, "", "")  # creates it, then sets both
    assert times("/sdcard/a") == "1700000000 1700000000"
    assert sh(device, "touch -d '2024-05-15 09:00:30' /sdcard/a")[0] == 0  # no zone: the device's (UTC)
    assert times("/sdcard/a") == "1715763630 1715763630"
    assert sh(device, "touch -d 2024-05-15T11:00:30+02:00 /sdcard/a")[0] == 0
    assert times("/sdcard/a") == "1715763630 1715763630"
    assert sh(device, "touch -t 202405150900.30 /sdcard/b; touch -m -d @5 /sdcard/b")[0] == 0  # -m: mtime only
    assert times("/sdcard/b") == "1715763630 5"
    assert sh(device, "touch -a -t 7001010000 /sdcard/b")[0] == 0  # YY 70: 1970; -a: atime only
    assert times("/sdcard/b") == "0 5"
    assert sh(device, "touch -r /sdcard/a /sdcard/c")[0] == 0
    assert times("/sdcard/c") == "1715763630 1715763630"
    assert sh(device, "touch -c -d @7 /sdcard/none; ls /sdcard/none")[0] == 1  # -c: no file made
    assert sh(device, "touch -d yesterday /sdcard/a") == (1, "", "touch: bad date 'yesterday'\n")
    assert sh(device, "touch -t 1399 /sdcard/a") == (1, "", "touch: bad date '1399'\n")
    assert sh(device, "touch -r /sdcard/nope /sdcard/a") == (1, "", "touch: /sdcard/nope: No such file or directory\n")
    assert times("/sdcard/a") == "1715763630 1715763630"  # a failed touch changes nothing


def test_echo_and_printf(device: FakeDevice) -> None:
    assert sh(device, "echo -n hi")[1] == "hi"
    assert sh(device, "echo -e 'a\\tb\\n'")[1] == "a\tb\n\n"
    assert sh(device, "echo 'a\\tb'")[1] == "a\\tb\n"
    assert sh(device, "echo -x")[1] == "-x\n"
    assert sh(device, "printf '%s=%d\\n' a 1 b 2")[1] == "a=1\nb=2\n"
    assert sh(device, "printf '%5s|%-3s|%03d|%%\\n' ab c 7")[1] == "   ab|c  |007|%\n"
    assert sh(device, "printf '%d\\n' x") == (1, "0\n", "printf: invalid number 'x'\n")


def test_md5sum(device: FakeDevice) -> None:
    device.fs.write("/data/local/tmp/u2.jar", b"jar bytes")
    digest = hashlib.md5(b"jar bytes").hexdigest()
    expected = f"{digest}  /data/local/tmp/u2.jar\n"
    assert sh(device, "md5sum /data/local/tmp/u2.jar") == (0, expected, "")
    assert sh(device, "toybox md5sum /data/local/tmp/u2.jar") == (0, expected, "")
    missing = "md5sum: /data/local/tmp/none: No such file or directory\n"
    assert sh(device, "toybox md5sum /data/local/tmp/none") == (1, "", missing)
    assert sh(device, "echo -n abc | md5sum")[1] == f"{hashlib.md5(b'abc').hexdigest()}  -\n"
    assert sh(device, "toybox nosuch")[0] == 1


def test_text_tools(device: FakeDevice) -> None:
    device.fs.write("/sdcard/t", b"alpha\nbeta\ngamma\ndelta\n")
    assert sh(device, "wc -l /sdcard/t")[1] == "4 /sdcard/t\n"
    assert sh(device, "cat /sdcard/t | wc -l")[1] == "4\n"
    assert sh(device, "head -n 2 /sdcard/t")[1] == "alpha\nbeta\n"
    assert sh(device, "head -1 /sdcard/t")[1] == "alpha\n"
    assert sh(device, "tail -n 1 /sdcard/t")[1] == "delta\n"
    assert sh(device, "tail -n +3 /sdcard/t")[1] == "gamma\ndelta\n"
    assert sh(device, "stat -c %s /sdcard/t")[1] == "23\n"
    assert sh(device, "echo hello | base64")[1] == "aGVsbG8K\n"
    assert sh(device, "echo aGVsbG8K | base64 -d")[1] == "hello\n"
    assert sh(device, "echo a:b:c | cut -d: -f2")[1] == "b\n"
    assert sh(device, "echo abc | tr a-c A-C")[1] == "ABC\n"
    assert sh(device, "printf 'b\\na\\nb\\n' | sort -u")[1] == "a\nb\n"
    assert sh(device, "basename /a/b.txt .txt; dirname /a/b.txt")[1] == "b\n/a\n"


@pytest.mark.parametrize(
    ("args", "status", "out"),
    [
        ("ta /sdcard/t", 0, "beta\ndelta\n"),
        ("-v ta /sdcard/t", 0, "alpha\ngamma\n"),
        ("-c a /sdcard/t", 0, "4\n"),
        ("-i ALPHA /sdcard/t", 0, "alpha\n"),
        ("-q beta /sdcard/t", 0, ""),
        ("-q zzz /sdcard/t", 1, ""),
        ("-n gam /sdcard/t", 0, "3:gamma\n"),
        ("'^[bd]' /sdcard/t", 0, "beta\ndelta\n"),
        ("-E 'al|de' /sdcard/t", 0, "alpha\ndelta\n"),
        ("'al|de' /sdcard/t", 1, ""),
        ("'a\\(l\\|m\\)' /sdcard/t", 0, "alpha\ngamma\n"),
        ("-F 'a.' /sdcard/t", 1, ""),
        ("'a.' /sdcard/t", 0, "alpha\ngamma\n"),
        ("-e zzz -e beta /sdcard/t", 0, "beta\n"),
        ("'[[:digit:]]' /sdcard/t", 1, ""),
        ("x /missing", 2, ""),
    ],
)
def test_grep(device: FakeDevice, args: str, status: int, out: str) -> None:
    device.fs.write("/sdcard/t", b"alpha\nbeta\ngamma\ndelta\n")
    assert sh(device, f"grep {args}")[:2] == (status, out)


@pytest.mark.parametrize(
    ("expr", "status"),
    [
        ("-e /sdcard", 0),
        ("-d /sdcard", 0),
        ("-f /sdcard", 1),
        ("-f /sdcard/t", 0),
        ("-e /nope", 1),
        ("-z ''", 0),
        ("-n ''", 1),
        ("abc = abc", 0),
        ("abc != abc", 1),
        ("3 -lt 5", 0),
        ("! -e /nope", 0),
        ("-e /nope -o -d /sdcard", 0),
        ("-e /sdcard -a -e /nope", 1),
        ("x", 0),
    ],
)
def test_test_command(device: FakeDevice, expr: str, status: int) -> None:
    device.fs.write("/sdcard/t", b"x")
    assert sh(device, f"test {expr}")[0] == status
    assert sh(device, f"[ {expr} ]")[0] == status


def test_bracket_needs_closing(device: FakeDevice) -> None:
    assert sh(device, "[ -e /") == (2, "", "[: missing ]\n")


def test_identity_and_misc(device: FakeDevice) -> None:
    assert sh(device, "whoami")[1] == "shell\n"
    assert sh(device, "id")[1].startswith("uid=2000(shell) gid=2000(shell) groups=")
    assert sh(device, "id -u")[1] == "2000\n"
    assert sh(device, "chmod 755 /sdcard/Download") == (0, "", "")
    assert sh(device, "chmod 755 /nope")[0] == 1
    assert sh(device, "find /sdcard/Download -type d")[1] == "/sdcard/Download\n"


def test_date_uses_the_device_clock(device: FakeDevice) -> None:
    from datetime import UTC, datetime

    class Clock:
        def now(self) -> datetime:
            return datetime(2024, 5, 15, 9, 0, 0, tzinfo=UTC)

    device.clock = Clock()  # type: ignore[attr-defined]
    assert sh(device, "date +%s")[1] == "1715763600\n"
    assert sh(device, "date")[1] == "Wed May 15 09:00:00 UTC 2024\n"
    assert sh(device, "date +%Y-%m-%d")[1] == "2024-05-15\n"


# --- the device root is a jail ---------------------------------------------------------------


def test_nothing_escapes_the_root(tmp_path: Path) -> None:
    device = FakeDevice(tmp_path / "root")
    (tmp_path / "secret").write_text("outside")
    assert sh(device, "cat ../../../../secret")[0] == 1
    assert sh(device, "cat /../secret")[0] == 1
    assert sh(device, "cat ../../../../etc/passwd")[0] == 1
    sh(device, "echo x > /../../escape; echo y > ../../escape2; cp /dev/null /../../escape3")
    sh(device, "mkdir -p /../../escdir; touch ../../esc4; cd /../..; echo z > esc5")
    outside = sorted(p.name for p in tmp_path.iterdir())
    assert outside == ["root", "secret"]
    assert (tmp_path / "root" / "escape").read_text() == "x\n"
    assert sh(device, "rm -rf /../secret; cat /../../secret")[0] == 1
    assert (tmp_path / "secret").exists()


# --- interactive shell -----------------------------------------------------------------------


def test_interactive_session(device: FakeDevice) -> None:
    stdin = Input(b"echo hi\ncd /sdcard\nnosuch\necho 'a\nb'\nexit 3\necho never\n", closed=True)
    out, err = BufferOutput(), BufferOutput()
    assert interactive(device, stdin, out, err) == 3
    assert out.data.decode() == (
        "generic_x86_64:/ $ hi\n"
        "generic_x86_64:/ $ "
        "generic_x86_64:/sdcard $ "
        "generic_x86_64:/sdcard $ > a\nb\n"
        "generic_x86_64:/sdcard $ "
    )
    assert err.data.decode() == "/system/bin/sh: nosuch: inaccessible or not found\n"


def test_interactive_ends_at_eof(device: FakeDevice) -> None:
    out = BufferOutput()
    assert interactive(device, Input(b"false\n", closed=True), out, out) == 1
    assert interactive(device, Input(b"", closed=True), out, out) == 0


def test_interactive_waits_for_input(device: FakeDevice) -> None:
    stdin, out = Input(), BufferOutput()
    result: list[int] = []
    thread = threading.Thread(target=lambda: result.append(interactive(device, stdin, out, out)))
    thread.start()
    stdin.feed(b"echo fed\n")
    stdin.feed(b"exit\n")
    thread.join(5)
    assert result == [0]
    assert b"fed\n" in out.data


def test_find_exec_runs_a_command_per_file_or_once_for_all(device):
    device.fs.write("/sdcard/Download/a b", b"1\n")
    device.fs.write("/sdcard/Download/.h", b"2\n")
    one = sh(device, "find /sdcard/Download -type f -exec md5sum {} +")
    one_md5, two_md5 = hashlib.md5(b"1\n").hexdigest(), hashlib.md5(b"2\n").hexdigest()
    assert one[1].splitlines() == [f"{two_md5}  /sdcard/Download/.h", f"{one_md5}  /sdcard/Download/a b"]
    each = sh(device, "find /sdcard/Download -name '*b' -exec echo got {} \\;")
    assert each[1] == "got /sdcard/Download/a b\n"
    assert sh(device, "find /sdcard -exec echo")[0] == 1


def test_wait_lets_the_background_jobs_finish_first(device: FakeDevice) -> None:
    """mksh's `wait`: what a background job prints comes before what follows the wait."""
    status, out, _ = sh(device, "{ sleep 0.2; echo late; } & wait; echo after")
    assert (status, out) == (0, "late\nafter\n")
