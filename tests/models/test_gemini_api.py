"""Google's Gemini API through its official SDK (`google-genai`) against the local server: the
generateContent path, the key header, the answer's text, parts and usage; retries on a 5xx and a
malformed answer; a refused key and a missing key, each with its own error."""

from __future__ import annotations

import base64
import json

import pytest

from pytest_mobile_agent.errors import ModelUnavailable
from pytest_mobile_agent.models import ChatClient, ModelConfig, ModelError
from pytest_mobile_agent.models.apis import api_for
from pytest_mobile_agent.models.errors import ModelConfigError
from tests.model_server import Answer, ModelServer

pytest.importorskip("google.genai")  # the [gemini] extra: installed in CI by [dev]

MODEL = "gemini-2.5-computer-use-preview-10-2025"
SHOT = base64.b64encode(b"\x89PNG" + bytes(400)).decode()  # long enough to be kept by its digest
REQUEST = {
    "contents": [
        {
            "role": "user",
            "parts": [{"text": "The task: open the menu"}, {"inline_data": {"mime_type": "image/png", "data": SHOT}}],
        }
    ],
    "config": {
        "system_instruction": "You are using an Android phone.",
        "tools": [
            {"computer_use": {"environment": "ENVIRONMENT_BROWSER", "excluded_predefined_functions": ["navigate"]}}
        ],
    },
}
CLICK = {"functionCall": {"name": "click_at", "args": {"x": 5, "y": 6}}}


def client(url: str, **kw: object) -> ChatClient:
    return ChatClient(ModelConfig(model=MODEL, api="gemini", base_url=url, **kw))  # type: ignore[arg-type]


def test_a_request_goes_through_the_sdk_to_generate_content(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "gm-test")
    answer = Answer(content=[{"text": "I will click."}, CLICK], tokens_in=1200, tokens_out=34)
    with ModelServer(lambda r: answer) as server:
        reply = client(server.url).ask(REQUEST)
    path, headers = server.seen[0]
    assert path == f"/v1beta/models/{MODEL}:generateContent"  # the URL's /v1 is replaced by the SDK's own
    assert headers["x-goog-api-key"] == "gm-test"
    body = server.requests[0]
    # The SDK passes the tool's fields through as written (the API reads either spelling).
    assert body["tools"] == [{"computerUse": REQUEST["config"]["tools"][0]["computer_use"]}]  # type: ignore[index]
    assert body["contents"][0]["parts"][1]["inlineData"]["data"] == SHOT  # sent as given, not re-encoded
    assert body["systemInstruction"]["parts"][0]["text"] == "You are using an Android phone."
    assert (reply.text, reply.tokens_in, reply.tokens_out, reply.estimated) == ("I will click.", 1200, 34, False)
    parts = reply.data["candidates"][0]["content"]["parts"]
    assert parts[1]["function_call"] == {"name": "click_at", "args": {"x": 5, "y": 6}}
    assert reply.cost_usd == pytest.approx((1200 * 1.25 + 34 * 10.0) / 1e6)


def test_thinking_tokens_count_as_output_and_thoughts_are_not_the_text() -> None:
    api = api_for("gemini")
    data = {
        "candidates": [{"content": {"parts": [{"text": "hmm", "thought": True}, {"text": "Done."}]}}],
        "usage_metadata": {"prompt_token_count": 10, "candidates_token_count": 5, "thoughts_token_count": 7},
    }
    assert api.usage(data) == (10, 12) and api.text(data) == "Done."
    assert api.usage({"candidates": []}) is None


def test_a_5xx_is_retried_and_the_usage_is_the_answers() -> None:
    answers = iter([Answer(status=503), Answer(content=[CLICK], tokens_in=50, tokens_out=3)])
    with ModelServer(lambda r: next(answers)) as server:
        reply = client(server.url, backoff_s=0.0).ask(REQUEST)
    assert server.statuses == [503, 200] and (reply.tokens_in, reply.tokens_out) == (50, 3)


def test_a_malformed_answer_is_retried_then_the_endpoint_is_down() -> None:
    body = json.dumps({"candidates": [], "promptFeedback": {"blockReason": "OTHER"}})
    broken = pytest.raises(ModelUnavailable, match="still failing after 1 retries .*the answer has no candidates")
    with ModelServer(lambda r: Answer(body=body)) as server, broken:
        client(server.url, max_retries=1, backoff_s=0.0).ask(REQUEST)
    assert len(server.requests) == 2


def test_a_refused_key_names_the_gemini_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "gm-wrong")
    error = json.dumps({"error": {"code": 403, "message": "API key not valid", "status": "PERMISSION_DENIED"}})
    refused = pytest.raises(ModelConfigError, match=r"refused the API key in \$GEMINI_API_KEY \(403: .*not valid")
    with ModelServer(lambda r: Answer(status=403, body=error)) as server, refused:
        client(server.url).ask(REQUEST)
    assert len(server.requests) == 1  # no retry changes a refused key


def test_no_key_and_no_url_names_the_gemini_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    monkeypatch.delenv("GOOGLE_GEMINI_BASE_URL", raising=False)
    with pytest.raises(ModelError, match="set the environment variable GEMINI_API_KEY"):
        ChatClient(ModelConfig(model=MODEL, api="gemini"))


def test_the_record_keeps_screenshots_by_their_digest() -> None:
    slim = api_for("gemini").slim(REQUEST)
    assert set(slim["contents"][0]["parts"][1]["inline_data"]["data"]) == {"sha256"}
