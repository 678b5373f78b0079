"""What can go wrong between the harness and a model endpoint."""

from __future__ import annotations

from pytest_mobile_agent.device.errors import InfrastructureFault


class ModelError(Exception):
    """The endpoint answered, but not with something usable (bad request, no choices)."""


class ModelUnavailable(InfrastructureFault):
    """The endpoint stayed down (429, 5xx, timeouts, refused connections) after every retry:
    an infrastructure error, rerun under --mobile-retries, never the agent's failure."""


class ReplayMiss(ModelError):
    """--mobile-model-replay found no recorded answer for a request."""
