"""The model record keyed per episode: a recording asks the model every time, each call stored at
its place in its episode; a replay serves each call its own answer and refuses a request that
differs from the recorded one at its place, saying what differs."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image

from pytest_mobile_agent.models import ChatClient, ModelConfig, ReplayMiss, system, user
from pytest_mobile_agent.models.cache import EPISODES, episode
from pytest_mobile_agent.models.messages import text_of
from pytest_mobile_agent.models.pricing import load_prices
from tests.model_server import ModelServer

R1, R2 = "t.py::test_calc[3 + 5-r1]", "t.py::test_calc[3 + 5-r2]"


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEST_MODEL_KEY", "sk-test")


def recorder(server: ModelServer, folder: Path, **kw: object) -> ChatClient:
    cfg = ModelConfig(model="gpt-4o", base_url=server.url, key_env="TEST_MODEL_KEY", cache_dir=str(folder), **kw)  # type: ignore[arg-type]
    return ChatClient(cfg, load_prices(None))


def replayer(folder: Path, model: str = "gpt-4o") -> ChatClient:
    return ChatClient(ModelConfig(model=model, cache_dir=str(folder), replay=True), load_prices(None))


def _png(colour: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (64, 128), colour).save(out, "PNG")
    return out.getvalue()


def _ask(client: ChatClient, text: str = "what now?", colour: str = "white") -> str:
    return client.chat([system("operate the phone"), user(text, images=[_png(colour)])]).text


def test_a_recording_asks_every_time_and_a_replay_gives_each_call_its_own_answer(
    tmp_path: Path, model_server: ModelServer
) -> None:
    model_server.script = lambda request: f"answer {len(model_server.requests)} to {text_of(request['messages'][-1])}"
    live = recorder(model_server, tmp_path)
    recorded = {}
    for nodeid in (R1, R2):  # two repeats: the same requests, in the same order
        with episode(nodeid):
            recorded[nodeid] = [_ask(live), _ask(live)]
    # Four identical-by-pairs requests, four answers: no answer reused while recording.
    assert len(model_server.requests) == 4
    assert recorded == {
        R1: ["answer 1 to what now?", "answer 2 to what now?"],
        R2: ["answer 3 to what now?", "answer 4 to what now?"],
    }
    assert live.take_stats().cached == 0
    folders = sorted(p.name for p in (tmp_path / EPISODES).iterdir())
    assert len(folders) == 2 and all(len(list((tmp_path / EPISODES / f).glob("*.json"))) == 2 for f in folders)
    model_server.stop()

    replay = replayer(tmp_path)
    for nodeid in (R2, R1):  # another order, as another xdist split would give
        with episode(nodeid):
            assert [_ask(replay), _ask(replay)] == recorded[nodeid]
    assert replay.take_stats().cached == 4


def test_a_replay_names_the_episode_the_call_and_what_differs(tmp_path: Path, model_server: ModelServer) -> None:
    model_server.script = lambda request: "ok"
    live = recorder(model_server, tmp_path)
    with episode(R1):
        _ask(live, "tap 3", "white")
        _ask(live, "tap +", "white")
    replay = replayer(tmp_path)

    def refused(client: ChatClient, *asks: tuple[str, str], **params: object) -> str:
        with episode(R1), pytest.raises(ReplayMiss) as info:
            for text, colour in asks:
                client.chat([system("operate the phone"), user(text, images=[_png(colour)])], **params)
        return str(info.value)

    said = refused(replay, ("tap 3", "white"), ("tap -", "white"))
    assert f"call 1 (counting from 0) of episode {R1}" in said
    assert "the text, from character 4: '+' recorded, '-' asked" in said
    said = refused(replay, ("tap 3", "black"))
    assert "call 0" in said and "image 0: sha256 " in said
    assert "temperature 0.0 recorded, 0.7 asked" in refused(replay, ("tap 3", "white"), temperature=0.7)
    assert "the model: 'gpt-4o' recorded, 'gpt-4o-mini' asked" in refused(
        replayer(tmp_path, "gpt-4o-mini"), ("tap 3", "white")
    )
    said = refused(replay, ("tap 3", "white"), ("tap +", "white"), ("tap 5", "white"))
    assert "call 2" in said and "the record holds 2 calls of this episode, this is call 3" in said
    with episode(R2), pytest.raises(ReplayMiss, match="the record holds no calls of this episode") as info:
        _ask(replay, "tap 3")
    assert "no recorded answer" in str(info.value) and "--mobile-model-cache" in str(info.value)


def test_recording_an_episode_again_replaces_its_calls(tmp_path: Path, model_server: ModelServer) -> None:
    model_server.script = lambda request: f"answer {len(model_server.requests)}"
    live = recorder(model_server, tmp_path)
    with episode(R1):
        _ask(live), _ask(live), _ask(live)
    with episode(R1):  # rerun (a retry): one call this time
        _ask(live)
    files = list((tmp_path / EPISODES).rglob("*.json"))
    assert (
        len(files) == 1
        and json.loads(files[0].read_text())["response"]["choices"][0]["message"]["content"] == "answer 4"
    )
    assert json.loads(files[0].read_text())["episode"] == R1


def test_outside_an_episode_an_identical_request_is_answered_from_the_record(
    tmp_path: Path, model_server: ModelServer
) -> None:
    # A judge judging a finished episode: the same question gets the same verdict.
    model_server.script = lambda request: f"verdict {len(model_server.requests)}"
    live = recorder(model_server, tmp_path)
    assert [_ask(live, "did it?"), _ask(live, "did it?")] == ["verdict 1", "verdict 1"]
    assert len(model_server.requests) == 1 and live.take_stats().cached == 1
    assert not (tmp_path / EPISODES).exists()
    assert _ask(replayer(tmp_path), "did it?") == "verdict 1"


def test_a_record_of_an_earlier_version_is_named_as_such(tmp_path: Path, model_server: ModelServer) -> None:
    model_server.script = lambda request: "ok"
    _ask(recorder(model_server, tmp_path))  # outside an episode: keyed by request, as every call once was
    with episode(R1), pytest.raises(ReplayMiss, match="made by an earlier version, which keyed calls by request only"):
        _ask(replayer(tmp_path))


def test_parameters_compare_as_recorded(tmp_path: Path, model_server: ModelServer) -> None:
    model_server.script = lambda request: "ok"
    with episode(R1):
        recorder(model_server, tmp_path).chat([user("hi")], stop=("\n",))  # a tuple, stored as a JSON list
    with episode(R1):
        assert replayer(tmp_path).chat([user("hi")], stop=("\n",)).text == "ok"
