"""The scripted model server for these tests (see tests/model_server.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.model_server import ModelServer


@pytest.fixture
def model_server() -> Iterator[ModelServer]:
    """A local OpenAI-compatible server on a real socket; set `model_server.script` to play a model."""
    with ModelServer() as server:
        yield server
