"""The device's shell: `run_script` for `adb shell CMD`, `interactive` for a bare `adb shell`.

language/ is mksh's language (parser, expansion, interpreter, builtins); commands/ holds the
commands, one module a family; api.py is what they meet on: the command registry and what a
command sees. Importing this package registers every builtin and command.
"""

# Importing these registers the builtins and every command family.
from pytest_mobile_agent.virtual.shell import commands  # noqa: F401
from pytest_mobile_agent.virtual.shell.language import builtins  # noqa: F401
from pytest_mobile_agent.virtual.shell.language.interp import interactive, run_script

__all__ = ["interactive", "run_script"]
