"""Infrastructure errors, apart from the adb client so that raising or catching them imports no adb code."""


class InfrastructureFault(RuntimeError):
    """The infrastructure failed (a device, adb, a model endpoint), not the agent: the task is
    retried on another device and the failure is never counted against the agent."""


class DeviceLost(InfrastructureFault):
    """The device stopped answering: an infrastructure error, never the agent's fault."""
