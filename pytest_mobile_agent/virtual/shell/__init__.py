"""The device's shell: `run_script` for `adb shell CMD`, `interactive` for a bare `adb shell`.

Importing this package registers the shell's own commands (files, text, builtins); the
Android commands register themselves from their own modules.
"""

# Importing a module registers its commands.
from pytest_mobile_agent.virtual.shell import files, interp, logcat, netcat, package_service, parser, sed, system_info  # noqa: F401
from pytest_mobile_agent.virtual.shell.interp import interactive, run_script

__all__ = ["interactive", "run_script"]
