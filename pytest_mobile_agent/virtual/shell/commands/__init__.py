"""The shell's commands, one module a family; importing this package registers them all.

Each family registers its commands in the shell's registry (`shell.api.COMMANDS`) and shares
helpers only through common.py: no family imports another.
"""

# Importing a module registers its commands.
from pytest_mobile_agent.virtual.shell.commands import (  # noqa: F401
    activities,
    dumpsys,
    files,
    grep,
    input,
    listing,
    logcat,
    network,
    packages,
    screen,
    scripting,
    sed,
    settings,
    system_info,
    text,
    uiautomator,
)
