"""Anthropic's Messages API through its official SDK against the local server: the beta endpoint
and header, the key, the answer's text, content and usage; a malformed answer, a
refused key and a missing key, each with its own error."""

from __future__ import annotations

import json

import pytest

from pytest_mobile_agent.errors import ModelUnavailable
from pytest_mobile_agent.models import ChatClient, ModelConfig, ModelError
from pytest_mobile_agent.models.apis import api_for
from pytest_mobile_agent.models.errors import ModelConfigError
from tests.model_server import Answer, ModelServer

pytest.importorskip("anthropic")  # the [anthropic] extra: installed in CI by [dev]

REQUEST = {
    "system": "You are using an Android phone.",
    "messages": [{"role": "user", "content": [{"type": "text", "text": "The task: open the menu"}]}],
    "tools": [{"type": "computer_20250124", "name": "computer", "display_width_px": 472, "display_height_px": 1024}],
    "max_tokens": 512,
    "betas": ["computer-use-2025-01-24"],
}
CLICK = {
    "type": "tool_use",
    "id": "toolu_01",
    "name": "computer",
    "input": {"action": "left_click", "coordinate": [5, 6]},
}


def client(url: str, **kw: object) -> ChatClient:
    return ChatClient(ModelConfig(model="claude-haiku-4-5", api="anthropic", base_url=url, **kw))  # type: ignore[arg-type]


def test_a_request_goes_through_the_sdk_to_the_beta_endpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    with ModelServer(
        lambda r: Answer(content=[{"type": "text", "text": "I will click."}, CLICK], tokens_in=1200, tokens_out=34)
    ) as server:
        reply = client(server.url).ask(REQUEST)
    path, headers = server.seen[0]
    assert path.split("?")[0] == "/v1/messages"  # the URL's /v1 is the SDK's own: not doubled
    assert headers["anthropic-beta"] == "computer-use-2025-01-24"
    # the SDK's releases send the key as x-api-key or as a bearer token
    assert "sk-ant-test" in (headers.get("x-api-key"), headers.get("authorization", "").removeprefix("Bearer "))
    body = server.requests[0]
    assert body["model"] == "claude-haiku-4-5" and body["tools"] == REQUEST["tools"] and "betas" not in body
    assert (reply.text, reply.tokens_in, reply.tokens_out, reply.estimated) == ("I will click.", 1200, 34, False)
    assert reply.data["content"][1] == CLICK and reply.data["stop_reason"] == "tool_use"
    assert reply.cost_usd == pytest.approx((1200 * 1.0 + 34 * 5.0) / 1e6)


def test_prompt_cache_tokens_count_as_input() -> None:
    usage = {
        "input_tokens": 10,
        "cache_creation_input_tokens": 200,
        "cache_read_input_tokens": 3000,
        "output_tokens": 5,
    }
    assert api_for("anthropic").usage({"content": [], "usage": usage}) == (3210, 5)


def test_a_malformed_answer_is_retried_then_the_endpoint_is_down() -> None:
    body = json.dumps({"id": "msg_1", "type": "message", "role": "assistant", "model": "m"})
    broken = pytest.raises(ModelUnavailable, match="still failing after 1 retries .*the answer has no content blocks")
    with ModelServer(lambda r: Answer(body=body)) as server, broken:
        client(server.url, max_retries=1, backoff_s=0.0).ask(REQUEST)
    assert len(server.requests) == 2


def test_a_refused_key_names_the_anthropic_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-wrong")
    error = json.dumps({"type": "error", "error": {"type": "authentication_error", "message": "invalid x-api-key"}})
    refused = pytest.raises(ModelConfigError, match=r"refused the API key in \$ANTHROPIC_API_KEY \(401: .*x-api-key")
    with ModelServer(lambda r: Answer(status=401, body=error)) as server, refused:
        client(server.url).ask(REQUEST)
    assert len(server.requests) == 1  # no retry changes a refused key


def test_no_key_and_no_url_names_the_anthropic_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("ANTHROPIC_BASE_URL", raising=False)
    with pytest.raises(ModelError, match="set the environment variable ANTHROPIC_API_KEY"):
        ChatClient(ModelConfig(model="claude-haiku-4-5", api="anthropic"))
