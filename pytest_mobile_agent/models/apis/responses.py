"""OpenAI's Responses API (`client.responses.create`): the computer-use tool's API. A request
carries `input` (the whole conversation: messages, the model's output items, tool outputs) and
`tools`; the answer's `output` holds its items (reasoning, `computer_call`, `message`)."""

from __future__ import annotations

from typing import Any

from pytest_mobile_agent.models.apis import Api


class Responses(Api):
    name = "responses"
    sdk_module = "openai"
    key_env = "OPENAI_API_KEY"
    url_env = "OPENAI_BASE_URL"
    default_url = "https://api.openai.com/v1"
    conversation = "input"

    def make_sdk(self, sdk: Any, key: str, base_url: str | None, timeout: float) -> Any:
        return sdk.OpenAI(api_key=key, base_url=base_url, max_retries=0, timeout=timeout)

    def create(self, client: Any, model: str, request: dict[str, Any], timeout: float) -> dict[str, Any]:
        response = client.responses.create(model=model, timeout=timeout, **request)
        # Without the SDK's nulls: the output items go back as input the next turn, as given.
        if not hasattr(response, "model_dump"):
            return dict(response)
        data: dict[str, Any] = response.model_dump(mode="json", exclude_none=True, warnings=False)
        return data

    def malformed(self, data: Any) -> str | None:
        if not isinstance(data, dict):
            return f"the answer is not a JSON object: {str(data)[:200]}"
        error = data.get("error")
        if data.get("status") == "failed" or error:
            said = error.get("message") if isinstance(error, dict) else error
            return f"the response failed: {str(said)[:200]}"
        output = data.get("output")
        if not isinstance(output, list) or not all(isinstance(item, dict) for item in output):
            return f"the answer has no list of output items: {str(data)[:200]}"
        return None

    def text(self, data: dict[str, Any]) -> str:
        """The text of the answer's messages (what the SDK's `output_text` joins)."""
        return "".join(
            str(part.get("text") or "")
            for item in data["output"]
            if item.get("type") == "message"
            for part in item.get("content") or []
            if isinstance(part, dict) and part.get("type") == "output_text"
        )

    def usage(self, data: dict[str, Any]) -> tuple[int, int] | None:
        usage = data.get("usage")
        if isinstance(usage, dict) and isinstance(usage.get("input_tokens"), int):
            return int(usage["input_tokens"]), int(usage.get("output_tokens") or 0)
        return None
