"""What can go wrong between the harness and a model endpoint (an endpoint that stays down, or
keeps giving answers that are no answers, is `errors.ModelUnavailable`, an infrastructure
failure)."""

from __future__ import annotations

from pytest_mobile_agent.errors import ConfigurationError


class ModelError(Exception):
    """The endpoint answered, but refused the request as made (a bad request)."""


class ModelConfigError(ModelError, ConfigurationError):
    """The endpoint refused the key (401, 403) or knows no such model (404): the run's options
    are wrong, and no request will succeed. Ends the session."""


class ReplayMiss(ModelConfigError):
    """--mobile-model-replay found no recorded answer for a request."""
