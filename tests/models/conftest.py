"""The scripted model server for these tests (see tests/model_server.py)."""

from tests.model_server import model_server  # noqa: F401  (fixture)
