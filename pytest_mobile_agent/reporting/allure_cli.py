"""The Allure 3 command that turns results into HTML: the npm `allure` package, pinned.

The package ships `npm/package.json` and `npm/package-lock.json`; on first use `npm ci` installs
exactly that into a user cache directory (one per lock file, so an upgrade of the plugin gets its
own), the same from a checkout or from an installed wheel. `--allure` or `$ALLURE` name another
Allure 3 command instead. `python -m pytest_mobile_agent.reporting.allure_cli` installs it ahead
of time (scripts/setup.sh does). Only the standard library here: setup.sh runs this module before
the plugin's dependencies are installed.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

NPM_PROJECT = Path(__file__).with_name("npm")
FILES = ("package.json", "package-lock.json")
MIN_NODE = 20
INSTALL_HINT = (
    "install Node.js (>= 20) and npm: on Debian or Ubuntu `sudo apt-get install nodejs npm`, "
    "elsewhere https://nodejs.org; or pass --allure PATH / set ALLURE to an Allure 3 command"
)


class ReportError(RuntimeError):
    pass


def cache_root() -> Path:
    """$PYTEST_MOBILE_AGENT_CACHE, else $XDG_CACHE_HOME/pytest-mobile-agent, else ~/.cache/..."""
    explicit = os.environ.get("PYTEST_MOBILE_AGENT_CACHE")
    if explicit:
        return Path(explicit)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "pytest-mobile-agent"


def install_dir() -> Path:
    lock = (NPM_PROJECT / "package-lock.json").read_bytes()
    return cache_root() / f"allure-{hashlib.sha256(lock).hexdigest()[:12]}"


def installed_command() -> Path:
    return install_dir() / "node_modules" / ".bin" / "allure"


def find_allure(explicit: str | None = None, *, install: bool = True) -> str:
    """--allure / $ALLURE, else the pinned Allure 3 in the user cache (installed now if missing)."""
    for candidate in (explicit, os.environ.get("ALLURE")):
        if candidate:
            return candidate
    command = installed_command()
    if not command.exists():
        if not install:
            raise ReportError(f"Allure 3 is not installed in {install_dir()}")
        install_allure()
    return str(command)


def _node_major() -> int | None:
    node = shutil.which("node")
    if node is None:
        return None
    out = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30).stdout
    match = re.match(r"v(\d+)\.", out.strip())
    return int(match.group(1)) if match else None


def install_allure() -> Path:
    """`npm ci` of the pinned package into the user cache; returns the allure command."""
    target = install_dir()
    npm = shutil.which("npm")
    major = _node_major()
    if npm is None or major is None:
        missing = [name for name, found in (("node", major), ("npm", npm)) if found is None]
        verb = "are" if len(missing) > 1 else "is"
        raise ReportError(
            f"the HTML report runs Allure 3, an npm package, and {' and '.join(missing)} {verb} not "
            f"on PATH: {INSTALL_HINT}"
        )
    if major < MIN_NODE:
        raise ReportError(
            f"the HTML report runs Allure 3, which needs Node.js >= {MIN_NODE}; found {major}: {INSTALL_HINT}"
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    # Installed beside the target and renamed into place: a concurrent or interrupted install
    # never leaves a half-filled directory that looks installed.
    staging = Path(tempfile.mkdtemp(prefix=f"{target.name}-", dir=target.parent))
    try:
        for name in FILES:
            shutil.copyfile(NPM_PROJECT / name, staging / name)
        print(f"installing Allure 3 (npm ci) into {target} ...", file=sys.stderr, flush=True)
        done = subprocess.run(
            [npm, "ci", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=staging,
            capture_output=True,
            text=True,
            timeout=900,
        )
        if done.returncode != 0:
            detail = f"{done.stdout}{done.stderr}".strip()
            raise ReportError(f"`npm ci` of Allure 3 failed ({done.returncode}) in {staging}:\n{detail}")
        try:
            staging.rename(target)
        except OSError:  # another process installed it first
            if not (target / "node_modules" / ".bin" / "allure").exists():
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return installed_command()


def main() -> int:
    try:
        print(find_allure())
    except ReportError as exc:
        print(exc, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
