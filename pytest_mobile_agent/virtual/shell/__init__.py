"""The device's shell: `run_script` for `adb shell CMD`, `interactive` for a bare `adb shell`.

Importing this package registers the shell's own commands (files, text, builtins); the
Android commands register themselves from their own modules.
"""

from . import files, interp, logcat, package_service, parser, system_info  # noqa: F401  (import registers commands)
from .interp import interactive, run_script

__all__ = ["interactive", "run_script"]
