"""Chat completions: every OpenAI-compatible endpoint (vLLM, SGLang, Ollama, hosted APIs)."""

from __future__ import annotations

from typing import Any

from pytest_mobile_agent.models.apis import Api
from pytest_mobile_agent.models.cache import slim_messages
from pytest_mobile_agent.models.pricing import estimate_request_tokens


class ChatCompletions(Api):
    name = "chat"
    sdk_module = "openai"
    key_env = "OPENAI_API_KEY"
    url_env = "OPENAI_BASE_URL"
    default_url = "https://api.openai.com/v1"
    conversation = "messages"

    def make_sdk(self, sdk: Any, key: str, base_url: str | None, timeout: float) -> Any:
        return sdk.OpenAI(api_key=key, base_url=base_url, max_retries=0, timeout=timeout)

    def create(self, client: Any, model: str, request: dict[str, Any], timeout: float) -> dict[str, Any]:
        response = client.chat.completions.create(model=model, timeout=timeout, **request)
        data: dict[str, Any] = response.model_dump() if hasattr(response, "model_dump") else response
        return data

    def malformed(self, data: Any) -> str | None:
        if not isinstance(data, dict):
            return f"the answer is not a JSON object: {str(data)[:200]}"
        choices = data.get("choices")
        if not choices or not isinstance(choices, list) or not isinstance(choices[0], dict):
            return f"the answer has no choices: {str(data)[:200]}"
        if not isinstance(choices[0].get("message"), dict):
            return f"the answer's choice has no message: {str(data)[:200]}"
        return None

    def text(self, data: dict[str, Any]) -> str:
        return str(data["choices"][0]["message"].get("content") or "")

    def usage(self, data: dict[str, Any]) -> tuple[int, int] | None:
        usage = data.get("usage")
        if isinstance(usage, dict) and isinstance(usage.get("prompt_tokens"), int):
            return int(usage["prompt_tokens"]), int(usage.get("completion_tokens") or 0)
        return None

    def slim(self, request: dict[str, Any]) -> dict[str, Any]:
        return {**request, "messages": slim_messages(request["messages"])}

    def estimate(self, request: dict[str, Any], image_side: int) -> int:
        return estimate_request_tokens(request["messages"], image_side)
