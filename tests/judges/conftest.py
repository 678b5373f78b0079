"""Fixtures for the judge tests: the scripted model server and pytest
sessions of task files in a sub-process."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.model_server import ModelServer
from tests.plugin.conftest import run_tasks  # noqa: F401  (fixture)


@pytest.fixture
def model_server() -> Iterator[ModelServer]:
    with ModelServer() as server:
        yield server
