"""Fixtures for the judge tests: the scripted model server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.model_server import ModelServer


@pytest.fixture
def model_server() -> Iterator[ModelServer]:
    with ModelServer() as server:
        yield server
