"""The one build step pyproject.toml cannot declare: the wheel carries the listener app's APK.

A wheel built from a clean clone (`pip install git+...`, `pip wheel .`, `python -m build`) has no
`pytest_mobile_agent/device/listener.apk` until `listener_app/build.sh` ran, so building one runs
it; where its tools are missing the build stops with the command that installs them, rather
than producing a wheel whose devices can never stream events. Editable installs skip this: the
checkout's own file is used and the plugin names the missing APK when a task needs it.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
APK = HERE / "pytest_mobile_agent" / "device" / "listener.apk"
BUILD = HERE / "listener_app" / "build.sh"


class BuildWithListenerApk(build_py):
    def run(self) -> None:
        if not APK.is_file() and not getattr(self, "editable_mode", False):
            build_listener_apk()
        super().run()


def build_listener_apk() -> None:
    if not BUILD.is_file():
        raise SystemExit(f"cannot build pytest-mobile-agent: {APK.name} is missing and so is {BUILD}")
    done = subprocess.run(["bash", str(BUILD)], capture_output=True, text=True)
    if done.returncode != 0 or not APK.is_file():
        raise SystemExit(
            "cannot build pytest-mobile-agent: the wheel must carry the listener app's APK, and "
            f"`bash listener_app/build.sh` failed:\n{done.stdout}{done.stderr}\n"
            "Install its tools first (Debian bookworm, as root): bash listener_app/install-build-deps.sh "
            "(from a clone of the repository), then build again."
        )


setup(cmdclass={"build_py": BuildWithListenerApk})
