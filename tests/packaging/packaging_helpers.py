"""A clean clone of this checkout and a fresh virtual environment, for the packaging tests."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# Replays each task's golden path, then says done: every task of the suites passes with it.
GOLDEN_AGENT = """
from pytest_mobile_agent import Done


class Agent:
    name = "golden-replay"

    def step(self, observation):
        golden = observation.task.golden
        i = len(observation.history)
        return golden[i] if i < len(golden) else Done()
"""


def run(cmd: list[str], **kwargs) -> subprocess.CompletedProcess:  # noqa: ANN003
    done = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    assert done.returncode == 0, f"{cmd} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
    return done


def clean_clone(destination: Path) -> Path:
    """A git repository of the working tree as it is now (tracked and new files, nothing ignored:
    no built APK, no build output), cloned as a user clones it."""
    source = destination.with_name(destination.name + "-source")
    listed = run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"], cwd=REPO).stdout
    for name in filter(None, listed.split("\0")):
        path = REPO / name
        if path.is_file() and not path.is_symlink():  # a file deleted but not yet committed is skipped
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, source / name)
    git = ["git", "-c", "user.name=test", "-c", "user.email=test@example.com"]
    run([*git, "init", "-q", str(source)])
    run([*git, "add", "-A"], cwd=source)
    run([*git, "commit", "-q", "-m", "snapshot"], cwd=source)
    run(["git", "clone", "-q", f"file://{source}", str(destination)])
    return destination


def fresh_venv(path: Path) -> Path:
    """A new virtual environment that reuses this interpreter's installed packages (the plugin's
    dependencies) but not its editable install of the plugin; returns its bin directory.

    `--system-site-packages` would reuse the *base* interpreter's packages, which in a user's
    venv lack the dependencies; so the new venv lists this interpreter's site directories in a
    .pth file instead. Their own .pth files (the editable install's finder) are not run."""
    run([sys.executable, "-m", "venv", "--without-pip", str(path)])
    site_packages = run([str(path / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"])
    reused = [p for p in sys.path if p.endswith("site-packages") and Path(p).is_dir()]
    (Path(site_packages.stdout.strip()) / "_reused_packages.pth").write_text("\n".join(reused) + "\n")
    return path / "bin"


def offline_env(venv_bin: Path, **extra: str) -> dict[str, str]:
    """The environment of a shell whose `python` is the venv's: no PYTHONPATH into this checkout,
    pip never reaches an index (dependencies come from the reused packages) and builds with the
    installed setuptools."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTEST_ADDOPTS")}
    env.update(
        PATH=f"{venv_bin}{os.pathsep}{env['PATH']}",
        VIRTUAL_ENV=str(venv_bin.parent),
        PIP_NO_INDEX="1",
        PIP_NO_BUILD_ISOLATION="0",  # pip's spelling of --no-build-isolation
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        **extra,
    )
    return env


if __name__ == "__main__":  # .ci/run's wheel check: python tests/packaging/packaging_helpers.py VENV
    fresh_venv(Path(sys.argv[1]))
