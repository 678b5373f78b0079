"""Secrets kept out of everything the plugin writes: the API keys in use are registered once
(`register`, from the environment variables the options name) and `redact` replaces each with
REDACTED in a string, or in every string of a JSON-like value. The writers apply it (results,
trajectories, reports' failure texts, the Allure results, log records), whatever echoed the key: an endpoint
quoting it in an error, an agent printing it."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TypeVar

REDACTED = "[REDACTED]"
MIN_SECRET = 6  # shorter values ("none", "x") are placeholders, and replacing them would garble text
# The variables the model APIs read their keys from by default (models/apis/).
DEFAULT_KEY_ENVS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY")
_secrets: set[str] = set()
T = TypeVar("T")


def register(value: str | None) -> None:
    """A secret to keep out of every file and line the plugin writes."""
    if value and len(value) >= MIN_SECRET:
        if not _secrets:
            _redact_logs()
        _secrets.add(value)


def _redact_logs() -> None:
    """Every log record made in this process from now on has the secrets replaced in its
    message, whichever logger made it (an HTTP library's debug line quoting a header too) and
    whichever handler writes it (pytest's captured logs, a log file)."""
    make = logging.getLogRecordFactory()

    def redacting(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = make(*args, **kwargs)
        message = record.getMessage()
        if has_secret(message):
            record.msg, record.args = redact(message), None
        return record

    logging.setLogRecordFactory(redacting)


def register_env(names: Iterable[str | None]) -> None:
    """The values of these environment variables (the keys' variables the options name)."""
    for name in {*DEFAULT_KEY_ENVS, *(n for n in names if n)}:
        register(os.environ.get(name))


def redact(value: T) -> T:
    """`value` with every registered secret replaced: a string, or the strings inside lists,
    tuples and dicts (keys too); anything else as it is."""
    if not _secrets:
        return value
    if isinstance(value, str):
        for secret in _secrets:
            if secret in value:
                value = value.replace(secret, REDACTED)  # type: ignore[assignment]
        return value
    if isinstance(value, dict):
        return {redact(k): redact(v) for k, v in value.items()}  # type: ignore[return-value]
    if isinstance(value, list | tuple):
        return type(value)(redact(v) for v in value)
    return value


def scrub_files(folder: Path) -> int:
    """Redact the secrets in every text file under `folder` (files other writers made, such as
    allure-pytest's results); the number of files rewritten."""
    if not _secrets or not folder.is_dir():
        return 0
    needles = [s.encode() for s in _secrets]
    changed = 0
    for path in folder.rglob("*"):
        if not path.is_file():
            continue
        data = path.read_bytes()
        if any(n in data for n in needles):
            for needle in needles:
                data = data.replace(needle, REDACTED.encode())
            path.write_bytes(data)
            changed += 1
    return changed


def has_secret(text: Any) -> bool:
    return isinstance(text, str) and any(s in text for s in _secrets)
