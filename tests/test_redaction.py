"""A registered key never reaches a log line, whichever logger writes it."""

from __future__ import annotations

import logging

import pytest

from pytest_mobile_agent import redaction


def test_log_records_have_the_key_replaced(caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(redaction, "_secrets", set())
    monkeypatch.setattr(logging, "_logRecordFactory", logging.getLogRecordFactory())  # restored after
    secret = "sk-test-0123456789abcdef"
    redaction.register(secret)
    with caplog.at_level(logging.DEBUG):
        logging.getLogger("pytest_mobile_agent.models.client").warning("endpoint said: bad key %s", secret)
        logging.getLogger("httpx").debug("Authorization: Bearer %s", secret)
        logging.getLogger("other").info("nothing secret here")
    assert secret not in caplog.text
    assert caplog.text.count(redaction.REDACTED) == 2
    assert "nothing secret here" in caplog.text
