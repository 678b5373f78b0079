"""Property tests: no text, however odd, makes the device's shell raise or escape its root."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_mobile_agent.virtual.core.fs import FileSystem
from pytest_mobile_agent.virtual.shell import interactive, run_script
from pytest_mobile_agent.virtual.shell.api import BufferOutput, Input
from pytest_mobile_agent.virtual.shell.language.parser import ShellSyntaxError, parse


class FakeDevice:
    def __init__(self, root: Path) -> None:
        self.fs = FileSystem(root)
        self.lock = threading.RLock()
        self.props = {"ro.product.device": "generic_x86_64"}


@pytest.fixture(scope="module")
def jail(tmp_path_factory: pytest.TempPathFactory) -> tuple[FakeDevice, Path]:
    base = tmp_path_factory.mktemp("fuzz")
    return FakeDevice(base / "root"), base


# Pieces of shell text that hit the parser's interesting paths. No `while`/`until`, so a
# generated script cannot loop forever; no `sleep`, so it stays fast.
TOKENS = [
    " ", "  ", "\t", "\n", ";", ";;", "&", "&&", "|", "||", "!", "(", ")", "{", "}", "#",
    "'", '"', "\\", "$", "${", "}", "$(", "`", "$((", "))", "$?", "$#", "$1", "${X:-d}",
    "${#X}", "${", "X=1", "A=b", "=", ">", ">>", "<", "2>&1", ">&2", "2>", "&>", "<<",
    "<<-", "EOF", "/dev/null", "/dev/tty", "/sdcard/f", "../..", "/../../x", "*", "?", "[a]",
    "echo", "cat", "ls", "-l", "-la", "rm", "-rf", "mkdir", "-p", "cp", "mv", "touch", "grep",
    "-E", "-v", "md5sum", "toybox", "printf", "%s", "%d", "\\n", "test", "[", "]", "-e", "-f",
    "=", "!=", "if", "then", "elif", "else", "fi", "for", "in", "do", "done", "true", "false",
    "exit", "cd", "export", "sh", "-c", "eval", "base64", "-d", "head", "tail", "-n", "wc",
    "sort", "nosuch", "x", "1", "0", "é", "\x00", "\udc80",
]  # fmt: skip

scripts = st.one_of(
    st.text(max_size=200),
    st.lists(st.sampled_from(TOKENS), max_size=30).map("".join),
    st.lists(st.sampled_from(TOKENS), max_size=20).map(" ".join),
)


def _run(device: FakeDevice, script: str) -> int:
    out, err = BufferOutput(), BufferOutput()
    return run_script(device, script, Input(b"", closed=True), out, err)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(script=scripts)
def test_parser_raises_only_syntax_errors(script: str) -> None:
    try:
        parse(script)
    except ShellSyntaxError as e:
        assert str(e)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(script=scripts)
def test_interpreter_always_returns_a_status(jail: tuple[FakeDevice, Path], script: str) -> None:
    device, base = jail
    status = _run(device, script)
    assert isinstance(status, int)
    assert 0 <= status <= 255
    assert sorted(p.name for p in base.iterdir()) == ["root"]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(st.sampled_from(TOKENS), max_size=20).map("".join))
def test_interactive_always_ends(jail: tuple[FakeDevice, Path], lines: str) -> None:
    device, _ = jail
    out = BufferOutput()
    stdin = Input(lines.encode("utf-8", "surrogatepass"), closed=True)
    assert isinstance(interactive(device, stdin, out, out), int)


def test_deep_nesting_is_a_syntax_error(jail: tuple[FakeDevice, Path]) -> None:
    device, _ = jail
    for script in ("(" * 5000, "$(" * 3000, "{ " * 5000, "echo " + "$(echo " * 400 + ")" * 400):
        assert isinstance(_run(device, script), int)
