"""Google's Gemini API through its official SDK (`google-genai`): `models.generate_content`, the
computer-use tool's API. A request carries `contents` (the whole conversation: user turns, the
model's turns, function responses) and `config` (system instruction, tools, output limit); the
answer's first candidate holds the model's parts (text, `function_call`)."""

from __future__ import annotations

from typing import Any

from pytest_mobile_agent.models.apis import Api, Failure

API_VERSION = "v1beta"  # the computer-use tool is a preview: the beta API serves it


class GeminiGenerate(Api):
    name = "gemini"
    sdk_module = "google.genai"
    key_env = "GEMINI_API_KEY"
    url_env = "GOOGLE_GEMINI_BASE_URL"
    default_url = "https://generativelanguage.googleapis.com"
    conversation = "contents"

    def make_sdk(self, sdk: Any, key: str, base_url: str | None, timeout: float) -> Any:
        # The SDK adds /v1beta itself: a URL written as for the other APIs (http://host:port/v1) works too.
        root = base_url.rstrip("/").removesuffix("/v1").removesuffix("/v1beta") if base_url else None
        options = sdk.types.HttpOptions(
            base_url=root,
            api_version=API_VERSION,
            timeout=int(timeout * 1000),  # milliseconds
            retry_options=sdk.types.HttpRetryOptions(attempts=1),  # the client retries, not the SDK
        )
        return sdk.Client(api_key=key, http_options=options)

    def create(self, client: Any, model: str, request: dict[str, Any], timeout: float) -> dict[str, Any]:
        options = {"timeout": int(timeout * 1000), "api_version": API_VERSION}  # this request's time left
        config = {**request.get("config", {}), "http_options": options}
        response = client.models.generate_content(model=model, contents=request["contents"], config=config)
        if not hasattr(response, "model_dump"):
            return response  # not the SDK's model: `malformed` judges it
        data: dict[str, Any] = response.model_dump(mode="json", exclude_none=True)
        return data

    def failure(self, sdk: Any, exc: Exception) -> Failure | None:
        import httpx  # the SDK's transport

        if isinstance(exc, httpx.TimeoutException):
            return Failure("timeout", message=str(exc))
        if isinstance(exc, httpx.TransportError):
            return Failure("connection", message=str(exc))
        if isinstance(exc, sdk.errors.APIError):
            return Failure("status", exc.code, str(exc.message or exc), exc.response)
        if isinstance(exc, ValueError):  # a body that is not JSON
            return Failure("malformed", message=str(exc))
        return None

    def malformed(self, data: Any) -> str | None:
        if not isinstance(data, dict):
            return f"the answer is not a JSON object: {str(data)[:200]}"
        candidates = data.get("candidates")
        if not isinstance(candidates, list) or not candidates or not isinstance(candidates[0], dict):
            feedback = data.get("prompt_feedback")
            return f"the answer has no candidates: {str(feedback or data)[:200]}"
        content = candidates[0].get("content")
        parts = content.get("parts") if isinstance(content, dict) else None
        if not isinstance(parts, list) or not all(isinstance(p, dict) for p in parts):
            return f"the answer's candidate has no parts: {str(candidates[0])[:200]}"
        return None

    def text(self, data: dict[str, Any]) -> str:
        parts = data["candidates"][0]["content"]["parts"]
        return "".join(str(p.get("text") or "") for p in parts if not p.get("thought"))

    def usage(self, data: dict[str, Any]) -> tuple[int, int] | None:
        usage = data.get("usage_metadata")
        if not isinstance(usage, dict) or not isinstance(usage.get("prompt_token_count"), int):
            return None
        # Thinking tokens are billed as output (the API counts them apart from the candidates').
        out = int(usage.get("candidates_token_count") or 0) + int(usage.get("thoughts_token_count") or 0)
        return int(usage["prompt_token_count"]), out
