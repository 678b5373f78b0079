"""The record of requests and answers, one JSON file per request under a hash of the request.

The key covers the model name, the messages (images included, byte for byte) and the parameters;
never the endpoint or the key, so a run recorded against a hosted model replays anywhere. The
stored request keeps a digest of each image instead of its data, to keep the record small.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any


def request_key(model: str, messages: list[dict[str, Any]], params: dict[str, Any]) -> str:
    blob = json.dumps({"model": model, "messages": messages, "params": params}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode()).hexdigest()


def _slim(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for m in messages:
        content = m.get("content")
        if isinstance(content, list):
            content = [
                {"type": "image_url", "image_url": {"sha256": _digest(p)}} if p.get("type") == "image_url" else p
                for p in content
            ]
        out.append({**m, "content": content})
    return out


def _digest(part: dict[str, Any]) -> str:
    return hashlib.sha256(part["image_url"]["url"].encode()).hexdigest()


class RequestCache:
    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)

    def path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        try:
            return json.loads(self.path(key).read_text())["response"]
        except FileNotFoundError:
            return None

    def put(self, key: str, model: str, messages: list[dict[str, Any]], params: dict[str, Any], response: dict) -> None:
        path = self.path(key)
        path.parent.mkdir(exist_ok=True)
        record = {
            "key": key,
            "request": {"model": model, "params": params, "messages": _slim(messages)},
            "response": response,
        }
        # Write then rename: xdist workers share the folder, and a reader never sees half a file.
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            json.dump(record, f, ensure_ascii=False, indent=1)
        os.replace(tmp, path)
