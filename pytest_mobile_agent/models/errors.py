"""What can go wrong between the harness and a model endpoint (an endpoint that stays down is
`errors.ModelUnavailable`, an infrastructure failure)."""

from __future__ import annotations


class ModelError(Exception):
    """The endpoint answered, but not with something usable (bad request, no choices)."""


class ReplayMiss(ModelError):
    """--mobile-model-replay found no recorded answer for a request."""
