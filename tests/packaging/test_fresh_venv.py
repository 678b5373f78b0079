"""The packaging tests' fresh venv reuses the packages of the interpreter running the tests (a
user's venv included), never the plugin's editable install."""

from __future__ import annotations

import subprocess
from pathlib import Path

from packaging_helpers import fresh_venv, offline_env


def test_the_fresh_venv_sees_this_interpreters_packages_but_not_the_plugin(tmp_path: Path) -> None:
    venv_bin = fresh_venv(tmp_path / "venv")
    probe = (
        "import sys, adbutils, importlib.util; "
        "print(sys.prefix); print(adbutils.__file__); print(importlib.util.find_spec('pytest_mobile_agent'))"
    )
    done = subprocess.run(
        [str(venv_bin / "python"), "-c", probe], cwd=tmp_path, env=offline_env(venv_bin), capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    prefix, adbutils_file, plugin = done.stdout.splitlines()
    assert Path(prefix) == tmp_path / "venv"
    import adbutils

    assert Path(adbutils_file) == Path(adbutils.__file__)  # the dependency as this interpreter has it
    assert plugin == "None", f"the editable install leaked into the fresh venv: {plugin}"
