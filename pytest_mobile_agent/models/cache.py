"""The record of requests and answers (`--mobile-model-cache DIR`), one JSON file per call.

A call made during an episode is stored under its episode and its place in it:
`DIR/episodes/<node id's slug>-<its hash>/<call index>.json`, the index counting from 0 in each
episode. Recording asks the model every time (repeats are independent samples of its answers);
a replay serves each call the answer recorded at its place, and refuses a request that differs
from the recorded one there (`difference`). The harness says which episode runs (`episode`): the
agent runs on a thread of its own, so the episode is held per process, one at a time.

A call outside an episode (a judge judging a finished one) is stored under a hash of the request
(`DIR/ab/<sha256>.json`), and an identical request is answered from it: a judge asked the same
question gives the same verdict.

Keys and records cover the model name, the messages (the API's turns) and the parameters, never
the endpoint or the key, so a run recorded against a hosted model replays anywhere. The stored
request keeps a digest of each image instead of its data, to keep the record small.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

EPISODES = "episodes"  # the folder of the calls made during episodes


class _Running:
    """The episode this process runs, and how many model calls it has made."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.nodeid: str | None = None
        self.calls = 0


_running = _Running()


@contextmanager
def episode(nodeid: str) -> Iterator[None]:
    """Model calls made until the block ends belong to this episode (the harness sets it before
    the agent's first step and clears it after the last)."""
    with _running.lock:
        _running.nodeid, _running.calls = nodeid, 0
    try:
        yield
    finally:
        with _running.lock:
            _running.nodeid, _running.calls = None, 0


def next_call() -> tuple[str, int] | None:
    """The running episode and this call's index in it (0, 1, 2...); None outside an episode."""
    with _running.lock:
        if _running.nodeid is None:
            return None
        index, _running.calls = _running.calls, _running.calls + 1
        return _running.nodeid, index


def request_key(model: str, messages: list[dict[str, Any]], params: dict[str, Any]) -> str:
    blob = json.dumps({"model": model, "messages": messages, "params": params}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode()).hexdigest()


def slim_request(model: str, messages: list[dict[str, Any]], params: dict[str, Any]) -> dict[str, Any]:
    """The request as recorded (`messages` and `params` as the API slims them: images by digest)."""
    return {"model": model, "params": params, "messages": messages}


def slim_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Chat messages with each image part by its digest."""
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


def episode_folder(nodeid: str) -> str:
    """A folder name for an episode: readable, and unique by the node id's hash."""
    slug = re.sub(r"[^A-Za-z0-9._=+-]+", "_", nodeid).strip("_")[:80]
    return f"{slug}-{hashlib.sha256(nodeid.encode()).hexdigest()[:12]}"


def difference(recorded: dict[str, Any], asked: dict[str, Any]) -> str | None:
    """What differs between the request recorded at a call's place and the one asked now (both
    as `slim_request` gives them), first thing first; None when they are the same."""
    asked = json.loads(json.dumps(asked, ensure_ascii=False))  # as it would be read back (tuples as lists)
    if recorded.get("model") != asked["model"]:
        return f"the model: {recorded.get('model')!r} recorded, {asked['model']!r} asked"
    old_params, new_params = recorded.get("params") or {}, asked["params"]
    changed = sorted(k for k in {*old_params, *new_params} if old_params.get(k) != new_params.get(k))
    if changed:
        said = ", ".join(f"{k} {old_params.get(k)!r} recorded, {new_params.get(k)!r} asked" for k in changed)
        return f"the parameters: {said}"
    old, new = recorded.get("messages") or [], asked["messages"]
    if len(old) != len(new):
        return f"the number of messages: {len(old)} recorded, {len(new)} asked"
    for i, (a, b) in enumerate(zip(old, new, strict=True)):
        if a.get("role") != b.get("role"):
            return f"message {i}'s role: {a.get('role')!r} recorded, {b.get('role')!r} asked"
        what = _content_difference(_parts(a.get("content")), _parts(b.get("content"))) or first_difference(a, b)
        if what:
            return f"message {i} ({b.get('role') or b.get('type')}): {what}"
    return None


def first_difference(old: Any, new: Any, path: str = "") -> str | None:
    """Where two JSON values first differ, and how; None when they are equal."""
    if isinstance(old, dict) and isinstance(new, dict):
        for k in sorted({*old, *new}, key=str):
            what = first_difference(old.get(k), new.get(k), f"{path}.{k}")
            if what:
                return what
        return None
    if isinstance(old, list) and isinstance(new, list):
        if len(old) != len(new):
            return f"{path or 'the value'}: {len(old)} items recorded, {len(new)} asked"
        for j, (a, b) in enumerate(zip(old, new, strict=True)):
            what = first_difference(a, b, f"{path}[{j}]")
            if what:
                return what
        return None
    if old != new:
        return f"{path.lstrip('.') or 'the value'}: {str(old)[:60]!r} recorded, {str(new)[:60]!r} asked"
    return None


def _parts(content: Any) -> list[dict[str, Any]]:
    if isinstance(content, list):
        return content
    return [{"type": "text", "text": "" if content is None else str(content)}]


def _content_difference(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> str | None:
    texts_old = [p.get("text", "") for p in old if p.get("type") != "image_url"]
    texts_new = [p.get("text", "") for p in new if p.get("type") != "image_url"]
    images_old = [p["image_url"].get("sha256") for p in old if p.get("type") == "image_url"]
    images_new = [p["image_url"].get("sha256") for p in new if p.get("type") == "image_url"]
    if texts_old != texts_new:
        a, b = "\n".join(texts_old), "\n".join(texts_new)
        at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
        return f"the text, from character {at}: {a[at : at + 60]!r} recorded, {b[at : at + 60]!r} asked"
    if len(images_old) != len(images_new):
        return f"the number of images: {len(images_old)} recorded, {len(images_new)} asked"
    for j, (x, y) in enumerate(zip(images_old, images_new, strict=True)):
        if x != y:
            return f"image {j}: sha256 {str(x)[:16]}… recorded, {str(y)[:16]}… asked"
    return None


class RequestCache:
    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)

    # -- calls made during an episode, by their place in it --------------------------------------
    def call_path(self, nodeid: str, index: int) -> Path:
        return self.folder / EPISODES / episode_folder(nodeid) / f"{index:04d}.json"

    def recorded_call(self, nodeid: str, index: int) -> dict[str, Any] | None:
        """The record of an episode's call at `index` ({"request", "response", ...}), or None."""
        try:
            record: dict[str, Any] = json.loads(self.call_path(nodeid, index).read_text())
        except FileNotFoundError:
            return None
        return record

    def recorded_calls(self, nodeid: str) -> int:
        """How many calls the record holds for an episode."""
        return len(list(self.call_path(nodeid, 0).parent.glob("*.json")))

    def older_layout(self) -> bool:
        """The folder holds calls keyed by request only and none by episode: a record made before
        calls were keyed by their episode, which a replay of episodes cannot use."""
        return not (self.folder / EPISODES).is_dir() and any(self.folder.glob("??/*.json"))

    def put_call(self, nodeid: str, index: int, request: dict[str, Any], response: dict[str, Any]) -> None:
        if index == 0:  # a new recording of this episode (a rerun, a retry): none of the old calls stay
            for old in self.call_path(nodeid, 0).parent.glob("*.json"):
                old.unlink()
        record = {"episode": nodeid, "call": index, "request": request, "response": response}
        self._write(self.call_path(nodeid, index), record)

    # -- calls outside an episode, by a hash of the request ---------------------------------------
    def path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        try:
            return json.loads(self.path(key).read_text())["response"]
        except FileNotFoundError:
            return None

    def put(self, key: str, request: dict[str, Any], response: dict) -> None:
        """`request` as `slim_request` gives it."""
        self._write(self.path(key), {"key": key, "request": request, "response": response})

    def _write(self, path: Path, record: dict[str, Any]) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        # Write then rename: xdist workers share the folder, and a reader never sees half a file.
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            json.dump(record, f, ensure_ascii=False, indent=1)
        os.replace(tmp, path)
