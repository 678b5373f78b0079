"""Anthropic's Messages API through its official SDK (`anthropic`): the beta endpoint, since the
computer-use tool needs a beta flag (`betas=[...]`, sent as the anthropic-beta header)."""

from __future__ import annotations

from typing import Any

from pytest_mobile_agent.models.apis import Api


class AnthropicMessages(Api):
    name = "anthropic"
    sdk_module = "anthropic"
    key_env = "ANTHROPIC_API_KEY"
    url_env = "ANTHROPIC_BASE_URL"
    default_url = "https://api.anthropic.com"
    conversation = "messages"

    def make_sdk(self, sdk: Any, key: str, base_url: str | None, timeout: float) -> Any:
        # The SDK adds /v1 itself: a URL written as for the other APIs (http://host:port/v1) works too.
        root = base_url.rstrip("/").removesuffix("/v1") if base_url else None
        return sdk.Anthropic(api_key=key, base_url=root, max_retries=0, timeout=timeout)

    def create(self, client: Any, model: str, request: dict[str, Any], timeout: float) -> dict[str, Any]:
        response = client.beta.messages.create(model=model, timeout=timeout, **request)
        if not hasattr(response, "model_dump"):
            return response  # not the SDK's model: `malformed` judges it
        data: dict[str, Any] = response.model_dump(mode="json", exclude_none=True)
        return data

    def malformed(self, data: Any) -> str | None:
        if not isinstance(data, dict):
            return f"the answer is not a JSON object: {str(data)[:200]}"
        if data.get("type") == "error" or "error" in data and data.get("content") is None:
            return f"the answer is an error: {str(data.get('error'))[:200]}"
        content = data.get("content")
        if not isinstance(content, list) or not all(isinstance(b, dict) and "type" in b for b in content):
            return f"the answer has no content blocks: {str(data)[:200]}"
        return None

    def text(self, data: dict[str, Any]) -> str:
        return "\n".join(str(b.get("text") or "") for b in data["content"] if b["type"] == "text")

    def usage(self, data: dict[str, Any]) -> tuple[int, int] | None:
        usage = data.get("usage")
        if not isinstance(usage, dict) or not isinstance(usage.get("input_tokens"), int):
            return None
        # Tokens read from or written to a prompt cache are input too (the API counts them apart).
        cached = sum(int(usage.get(k) or 0) for k in ("cache_creation_input_tokens", "cache_read_input_tokens"))
        return int(usage["input_tokens"]) + cached, int(usage.get("output_tokens") or 0)
