"""The device records a session acts on are the user's alone: kept in a 0700 folder of theirs,
refused (and nothing deleted) where another user owns that folder or may write to it, and a
record file someone else planted is never read."""

from __future__ import annotations

import json
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_mobile_agent.virtual.adb import registration
from pytest_mobile_agent.virtual.core import private_dirs
from pytest_mobile_agent.virtual.core.private_dirs import UnsafeDirectory

NOBODY = 65534
as_root = pytest.mark.skipif(os.getuid() != 0, reason="giving a file to another user needs root (CI runs as root)")


@pytest.fixture
def tmpdir_base(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh TMPDIR that every user may write to (sticky, as /tmp is; pytest's own tmp_path is
    private), no XDG_RUNTIME_DIR: the state goes to its `pytest-mobile-agent-UID`."""
    shared = Path(tempfile.mkdtemp(prefix="pma-shared-tmp-"))
    shared.chmod(0o1777)
    monkeypatch.setattr(tempfile, "tempdir", str(shared))
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    yield shared / f"pytest-mobile-agent-{os.getuid()}"
    shutil.rmtree(shared)


def plant(base: Path, root: Path) -> Path:
    """A record of a dead device whose root is `root`, as an attacker would write it."""
    (base / "virtual-devices").mkdir(parents=True, exist_ok=True)
    record = base / "virtual-devices" / "5037-emulator-5554.json"
    record.write_text(json.dumps({"serial": "emulator-5554", "pid": 2**22 + 1, "adb_port": 5037, "root": str(root)}))
    return record


def victim_root(tmp_path: Path) -> Path:
    """A live device's root, which a planted record names."""
    root = tmp_path / "pma-vdev-live"
    root.mkdir()
    (root / "data.txt").write_text("precious")
    return root


def test_the_state_folders_are_created_private_and_named_for_the_user(tmpdir_base: Path) -> None:
    folder = registration.directory()
    assert folder == tmpdir_base / "virtual-devices"
    for level in (tmpdir_base, folder):
        st = os.lstat(level)
        assert st.st_uid == os.getuid()
        assert stat.S_IMODE(st.st_mode) & 0o077 == 0


def test_a_private_runtime_dir_is_preferred(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    runtime = tmp_path / "run-user"
    runtime.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    assert private_dirs.state_dir("leases") == runtime / "pytest-mobile-agent" / "leases"
    runtime.chmod(0o777)  # not usable: not private
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    assert private_dirs.base() == tmp_path / f"pytest-mobile-agent-{os.getuid()}"


def test_a_folder_open_to_others_is_refused_and_nothing_is_deleted(tmpdir_base: Path, tmp_path: Path) -> None:
    tmpdir_base.mkdir(mode=0o777)
    tmpdir_base.chmod(0o777)  # as a squatter (or a careless umask) left it
    root = victim_root(tmp_path)
    record = plant(tmpdir_base, root)
    with pytest.raises(UnsafeDirectory, match=rf"{tmpdir_base}.*open to other users \(mode 0777"):
        registration.sweep()
    assert (root / "data.txt").read_text() == "precious"
    assert record.exists()


def test_a_symlink_in_place_of_the_folder_is_refused(tmpdir_base: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    tmpdir_base.symlink_to(elsewhere)
    with pytest.raises(UnsafeDirectory, match="not a directory"):
        registration.sweep()


@as_root
def test_a_folder_another_user_made_first_is_refused_and_nothing_is_deleted(tmpdir_base: Path, tmp_path: Path) -> None:
    root = victim_root(tmp_path)
    pid = os.fork()
    if pid == 0:  # another local user gets there first and plants a record
        try:
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            tmpdir_base.mkdir(mode=0o700)
            plant(tmpdir_base, root)
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
    assert os.lstat(tmpdir_base).st_uid == NOBODY
    with pytest.raises(UnsafeDirectory, match=rf"{tmpdir_base}.*owned by uid {NOBODY}, not by you"):
        registration.sweep()
    assert (root / "data.txt").read_text() == "precious"


@as_root
def test_a_record_of_another_user_is_not_read(tmpdir_base: Path, tmp_path: Path) -> None:
    root = victim_root(tmp_path)
    registration.directory()
    record = plant(tmpdir_base, root)
    os.chown(record, NOBODY, NOBODY)
    assert registration.sweep() == []
    assert (root / "data.txt").read_text() == "precious"
    assert record.exists()
    os.chown(record, os.getuid(), os.getgid())  # the same record, ours: swept, its root removed
    assert registration.sweep() == ["emulator-5554"]
    assert not root.exists()


def test_a_session_refuses_an_unsafe_state_folder_with_one_message(
    run_tasks, calc_tasks: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared = tmp_path / "shared-tmp"
    shared.mkdir(mode=0o1777)
    base = shared / f"pytest-mobile-agent-{os.getuid()}"
    base.mkdir()
    base.chmod(0o777)
    root = victim_root(tmp_path)
    plant(base, root)
    monkeypatch.setenv("TMPDIR", str(shared))
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    run = run_tasks(calc_tasks, "--agent=oracle")
    assert run.result.ret == pytest.ExitCode.USAGE_ERROR
    run.result.stderr.fnmatch_lines([f"*will not use {base}: it is open to other users*chmod 700*"])
    assert not run.episodes
    assert (root / "data.txt").read_text() == "precious"
