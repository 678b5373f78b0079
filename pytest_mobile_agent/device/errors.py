"""Device errors, apart from the adb client so that raising or catching them imports no adb code."""


class DeviceLost(RuntimeError):
    """The device stopped answering: an infrastructure error, never the agent's fault."""
