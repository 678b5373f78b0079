"""The chat client against a real local server: answers, usage and cost, retries, record/replay."""

from __future__ import annotations

import io
import json
import os
import socket

import pytest
from PIL import Image

from pytest_mobile_agent.errors import InfrastructureFault, ModelUnavailable
from pytest_mobile_agent.models import (
    ChatClient,
    ModelConfig,
    ModelError,
    ReplayMiss,
    image_part,
    system,
    user,
)
from pytest_mobile_agent.models.messages import decode, text_of
from pytest_mobile_agent.models.pricing import load_prices
from tests.model_server import Answer, ModelServer

KEY = "sk-test-client-secret-0123456789"


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEST_MODEL_KEY", KEY)


def client_for(server: ModelServer, **kw: object) -> ChatClient:
    cfg = ModelConfig(
        model=kw.pop("model", "gpt-4o"), base_url=server.url, key_env="TEST_MODEL_KEY", backoff_s=0.01, **kw
    )  # type: ignore[arg-type]
    return ChatClient(cfg, load_prices(None))


def test_answer_usage_and_cost_come_from_the_response(model_server: ModelServer) -> None:
    model_server.script = lambda request: Answer("hello", tokens_in=1200, tokens_out=30)
    reply = client_for(model_server).chat([system("be brief"), user("hi")])
    assert (reply.text, reply.tokens_in, reply.tokens_out) == ("hello", 1200, 30)
    assert reply.cost_usd == pytest.approx((1200 * 2.5 + 30 * 10.0) / 1e6)
    assert model_server.requests[0]["messages"] == [
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": "hi"},
    ]
    assert model_server.requests[0]["model"] == "gpt-4o"


def test_an_unpriced_model_has_no_cost(model_server: ModelServer) -> None:
    model_server.script = lambda request: "ok"
    assert client_for(model_server, model="my-local-llama").chat([user("hi")]).cost_usd is None


def test_429_5xx_and_stalls_are_retried_and_counted(model_server: ModelServer) -> None:
    plan = [Answer(status=429, headers={"retry-after-ms": "5"}), Answer(status=503), Answer(stall_s=1.0), "fine"]
    model_server.script = lambda request: plan[len(model_server.requests) - 1]
    client = client_for(model_server, timeout_s=0.3)
    reply = client.chat([user("hi")])
    assert reply.text == "fine" and reply.retries == 3
    stats = client.take_stats()
    assert (stats.calls, stats.retries) == (1, 3)
    assert dict(stats.retry_reasons) == {"429": 1, "5xx": 1, "timeout": 1}
    assert client.take_stats().retries == 0  # counting starts afresh


def test_an_endpoint_that_stays_down_is_an_infrastructure_fault(model_server: ModelServer) -> None:
    model_server.script = lambda request: Answer(status=500)
    with pytest.raises(ModelUnavailable, match="still failing after 2 retries") as info:
        client_for(model_server, max_retries=2).chat([user("hi")])
    assert isinstance(info.value, InfrastructureFault)
    assert len(model_server.requests) == 3


def test_a_refused_connection_is_retried_then_infrastructure() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens there once closed
    cfg = ModelConfig(
        model="m", base_url=f"http://127.0.0.1:{port}/v1", key_env="TEST_MODEL_KEY", max_retries=1, backoff_s=0.01
    )
    with pytest.raises(ModelUnavailable, match="connection"):
        ChatClient(cfg).chat([user("hi")])


def test_a_bad_request_is_a_model_error_not_retried(model_server: ModelServer) -> None:
    model_server.script = lambda request: Answer(status=400)
    with pytest.raises(ModelError, match="answered 400") as info:
        client_for(model_server).chat([user("hi")])
    assert not isinstance(info.value, InfrastructureFault)
    assert len(model_server.requests) == 1


def test_record_then_replay_with_the_server_stopped(tmp_path, model_server: ModelServer) -> None:
    model_server.script = lambda request: f"answer to {text_of(request['messages'][-1])}"
    png = io.BytesIO()
    Image.new("RGB", (1080, 2340), "white").save(png, "PNG")
    live = client_for(model_server, cache_dir=str(tmp_path))
    first = [live.chat([user(q, images=[png.getvalue()])]) for q in ("a", "b")]
    model_server.stop()
    replay = ChatClient(ModelConfig(model="gpt-4o", cache_dir=str(tmp_path), replay=True))
    again = [replay.chat([user(q, images=[png.getvalue()])]) for q in ("a", "b")]
    assert [(r.text, r.tokens_in, r.tokens_out, r.cost_usd) for r in again] == [
        (r.text, r.tokens_in, r.tokens_out, r.cost_usd) for r in first
    ]
    assert all(r.cached for r in again) and replay.take_stats().cached == 2
    with pytest.raises(ReplayMiss, match="no recorded answer"):
        replay.chat([user("c")])
    files = list(tmp_path.rglob("*.json"))
    assert len(files) == 2
    for f in files:
        text = f.read_text()
        assert KEY not in text
        assert "base64" not in text  # images are stored as digests
        assert json.loads(text)["request"]["model"] == "gpt-4o"


def test_replay_without_a_cache_is_refused() -> None:
    with pytest.raises(ModelError, match="needs --mobile-model-cache"):
        ChatClient(ModelConfig(model="m", replay=True))


def test_no_key_for_the_hosted_endpoint_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.delenv("NO_SUCH_KEY_VAR", raising=False)
    with pytest.raises(ModelError, match="set the environment variable NO_SUCH_KEY_VAR"):
        ChatClient(ModelConfig(model="gpt-4o", key_env="NO_SUCH_KEY_VAR"))


def test_the_sdk_base_url_variable_is_honoured(monkeypatch: pytest.MonkeyPatch, model_server: ModelServer) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", model_server.url)
    model_server.script = lambda request: "via env"
    assert ChatClient(ModelConfig(model="m", key_env="TEST_MODEL_KEY")).chat([user("x")]).text == "via env"
    assert os.environ["OPENAI_BASE_URL"] == model_server.url


def test_images_are_downscaled_jpeg_data_urls() -> None:
    png = io.BytesIO()
    Image.new("RGB", (1080, 2340), "red").save(png, "PNG")
    url = image_part(png.getvalue(), max_side=512)["image_url"]["url"]
    assert url.startswith("data:image/jpeg;base64,")
    import base64

    img = Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1])))
    assert img.size == (1080 // 5, 2340 // 5)  # the smallest whole factor that fits 512


@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L", "P"])
def test_screenshots_decode_to_the_pixels_pillow_reads(mode: str) -> None:
    # libspng decodes the PNG (RGBA as Android's screencap writes it, RGB as the virtual device does);
    # what the model sees must not change with the decoder.
    r, g, b, a = (Image.effect_noise((90, 200), sigma) for sigma in (30, 60, 90, 120))
    noise = Image.merge("RGB", (r, g, b))
    picture = Image.merge("RGBA", (r, g, b, a))
    picture = picture.convert(mode) if mode != "P" else noise.quantize(16)
    data = io.BytesIO()
    picture.save(data, "PNG")
    got = decode(data.getvalue())
    assert got.mode == "RGB" and got.size == (90, 200)
    assert got.tobytes() == Image.open(io.BytesIO(data.getvalue())).convert("RGB").tobytes()
    jpeg = io.BytesIO()
    noise.save(jpeg, "JPEG")
    assert decode(jpeg.getvalue()).size == (90, 200)  # not a PNG: Pillow reads it


def test_a_stalling_endpoint_gives_up_within_the_deadline(model_server: ModelServer) -> None:
    model_server.script = lambda request: Answer(stall_s=2.0)
    client = client_for(model_server, timeout_s=5.0, deadline_s=0.6, max_retries=10)
    with pytest.raises(ModelUnavailable, match="the time one step may wait"):
        client.chat([user("hi")])
    assert len(model_server.requests) <= 2  # the per-request timeout shrank to the time left
