"""The device's shell: `run_script` for `adb shell CMD`, `interactive` for a bare `adb shell`.

Importing this package registers every command, family by family: the shell's own (files,
text, builtins, sed, netcat, system info) and Android's (android.py, package_service.py,
logcat.py).
"""

# Importing a module registers its commands.
from pytest_mobile_agent.virtual.shell import (  # noqa: F401
    android,
    files,
    interp,
    logcat,
    netcat,
    package_service,
    parser,
    sed,
    system_info,
)
from pytest_mobile_agent.virtual.shell.interp import interactive, run_script

__all__ = ["interactive", "run_script"]
