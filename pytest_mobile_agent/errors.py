"""The outcome taxonomy: whose failure an episode's end was, decided by the exception's family.

- `AgentError`: the agent raised, hung or kept giving invalid actions; counted against it.
- `TaskError`: the task could not run as declared, or not on this device (a precondition that
  failed: `PreconditionError`, `ShellCommandError`); counted neither way.
- `InfrastructureFault`: a device, adb or a model endpoint failed; the task runs again on
  another device and the failure is never counted against the agent.
- `ConfigurationError`: the run itself is misconfigured (a key the endpoint refuses, a model it
  does not know, a request missing from the replay cache); no task could succeed, so the
  session stops at the first, with exit status CONFIGURATION_EXIT.

Callers catch by family, never by message (`fault_in` finds an infrastructure fault anywhere in
an exception's chain). Nothing here imports anything: raising or catching an outcome costs no
adb, model or pytest code.
"""

from __future__ import annotations

from typing import Final, Literal

# How an episode ended: its record's `termination`, one word per outcome.
Termination = Literal["completed", "max_steps", "error", "infrastructure", "task_error", "interrupted"]
COMPLETED: Final = "completed"  # the agent said done
MAX_STEPS: Final = "max_steps"  # the step budget ran out
ERROR: Final = "error"  # an AgentError
INFRASTRUCTURE: Final = "infrastructure"  # an InfrastructureFault
TASK_ERROR: Final = "task_error"  # a TaskError: the task, not the agent, could not run
INTERRUPTED: Final = "interrupted"  # Ctrl-C cut the episode short: counted neither way


# -- the agent's failures --------------------------------------------------------------------------
class AgentError(Exception):
    """The agent raised, hung or kept giving invalid actions: the agent's failure."""


# -- the task's ------------------------------------------------------------------------------------
class TaskError(Exception):
    """The task cannot run on this device as declared (e.g. its app is not installed)."""


class TaskDefinitionError(TaskError):
    """A task declaration that cannot run; the message names the task and the problem."""


class TaskBodyError(TaskError):
    """The task's body raised something other than AssertionError on the final state: a bug in
    the task (a KeyError, a ZeroDivisionError), not the agent's failure."""


class GoldenPathError(TaskError):
    """A golden path step whose selector matches nothing on the screen (found by the oracle)."""


class PreconditionError(TaskError):
    """A task's start state is not what it declares: a seeding step failed, or what it made is
    not there when read back. The task is broken on this device, whatever the agent does."""


class ShellCommandError(TaskError):
    """A device shell command that failed (a non-zero exit status or the shell's own error
    message) where its caller expected it to work; names the command, the status and the output.
    Raised while a precondition fixture seeds, it is that precondition's failure."""

    def __init__(self, serial: str, command: str, status: int | None, output: str) -> None:
        self.serial, self.command, self.status, self.output = serial, command, status, output
        said = output.strip()
        said = said if len(said) <= 300 else said[:300] + "..."
        exit = "no exit status (the shell did not run it)" if status is None else f"exit status {status}"
        super().__init__(f"`{command}` failed on {serial}: {exit}, output: {said or '(none)'}")


# -- the infrastructure's --------------------------------------------------------------------------
class InfrastructureFault(RuntimeError):
    """The infrastructure failed (a device, adb, a model endpoint), not the agent: the task is
    retried on another device and the failure is never counted against the agent."""


class DeviceLost(InfrastructureFault):
    """The device stopped answering."""


class ObservationFailed(InfrastructureFault):
    """The device answers but gave no screen after every retry (a window dump that never came):
    the task is retried, the device kept."""


class EventStreamError(InfrastructureFault):
    """The event stream could not be reached, or was lost and every reconnect failed."""


class ModelUnavailable(InfrastructureFault):
    """The model endpoint stayed down (429, 5xx, timeouts, refused connections) after every retry."""


class InfrastructureError(InfrastructureFault):
    """The test's outcome when its device failed, not its agent: never counted against the agent."""


# -- the run's configuration -----------------------------------------------------------------------
class ConfigurationError(Exception):
    """The run is misconfigured: its message names the option to fix. Ends the session."""


CONFIGURATION_EXIT: Final = 6  # the session's exit status after a ConfigurationError (pytest's own end at 5)


def fault_in(exc: BaseException | None) -> InfrastructureFault | None:
    """The InfrastructureFault that `exc` is, or was raised from (its cause or context)."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, InfrastructureFault):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return None
