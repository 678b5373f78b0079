"""The model APIs the one client speaks (models/client.py): each knows its SDK, how a request
is sent, what its answer holds (text, usage) and how its failures read. The client does the rest
the same way for all of them: retries with backoff, usage and cost, record and replay.

A request is the API's own keyword arguments without the model (`messages` and `temperature`
for chat completions; `input` and `tools` for the Responses API; `system`, `messages`, `tools`
and `max_tokens` for Anthropic's Messages API). Its `conversation` key names the part the cache
compares turn by turn.
"""

from __future__ import annotations

import hashlib
import importlib
import os
from dataclasses import dataclass
from typing import Any, ClassVar

from pytest_mobile_agent.models.pricing import estimate_image_tokens, estimate_text_tokens

# api name -> "module:Class", imported when a client speaks it (each needs its own SDK).
APIS = {
    "chat": "pytest_mobile_agent.models.apis.chat:ChatCompletions",
    "responses": "pytest_mobile_agent.models.apis.responses:Responses",
    "anthropic": "pytest_mobile_agent.models.apis.anthropic:AnthropicMessages",
    "gemini": "pytest_mobile_agent.models.apis.gemini:GeminiGenerate",
}
IMAGE_MIN_CHARS = 256  # a base64 string at least this long is an image: the record keeps its digest


@dataclass(frozen=True)
class Failure:
    """A failed request, as the client's retry loop reads it."""

    reason: str  # "timeout", "connection", "status" or "malformed"
    status: int | None = None
    message: str = ""
    response: Any = None  # the HTTP response, for its Retry-After


class Api:
    """One API. Subclasses fill in the class attributes and the methods that differ."""

    name: ClassVar[str]
    sdk_module: ClassVar[str]  # the official SDK's import name (extras.PACKAGES names its extra)
    key_env: ClassVar[str]  # the environment variable its SDK reads the key from
    url_env: ClassVar[str | None] = None  # ... and the endpoint, if it reads one
    default_url: ClassVar[str]
    conversation: ClassVar[str]  # the request's key holding the turns

    def endpoint(self, base_url: str | None) -> str:
        return base_url or (os.environ.get(self.url_env) if self.url_env else None) or self.default_url

    def make_sdk(self, sdk: Any, key: str, base_url: str | None, timeout: float) -> Any:
        raise NotImplementedError

    def create(self, client: Any, model: str, request: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send one request; the answer as JSON."""
        raise NotImplementedError

    def failure(self, sdk: Any, exc: Exception) -> Failure | None:
        """What a raised exception means; None when it is not the SDK's (a bug: let it raise)."""
        return stainless_failure(sdk, exc)

    def malformed(self, data: Any) -> str | None:
        """What makes an HTTP 200's body no answer, or None when it is one."""
        raise NotImplementedError

    def text(self, data: dict[str, Any]) -> str:
        raise NotImplementedError

    def usage(self, data: dict[str, Any]) -> tuple[int, int] | None:
        """(input, output) tokens as the answer counts them; None when it does not."""
        raise NotImplementedError

    def slim(self, request: dict[str, Any]) -> dict[str, Any]:
        """The request as the record keeps it: every image by its digest."""
        return digest_images(request)

    def estimate(self, request: dict[str, Any], image_side: int) -> int:
        """Input tokens by MobileAgentBench's rules, for an answer without usage."""
        return _estimate(self.slim(request), image_side)


def stainless_failure(sdk: Any, exc: Exception) -> Failure | None:
    """Failures of the SDKs generated alike (openai, anthropic): the same exception classes."""
    if isinstance(exc, sdk.APITimeoutError):  # a subclass of APIConnectionError: test it first
        return Failure("timeout", message=str(exc))
    if isinstance(exc, sdk.APIConnectionError):
        return Failure("connection", message=str(exc))
    if isinstance(exc, sdk.APIStatusError):
        return Failure("status", exc.status_code, exc.message, exc.response)
    if isinstance(exc, sdk.APIResponseValidationError | ValueError):  # a body that is not JSON
        return Failure("malformed", message=str(exc))
    return None


def api_for(name: str) -> Api:
    """The API of this name; a ValueError listing the known ones otherwise."""
    if name not in APIS:
        raise ValueError(f"no model API {name!r}: known are {', '.join(sorted(APIS))}")
    module, _, cls = APIS[name].partition(":")
    made: Api = getattr(importlib.import_module(module), cls)()
    return made


def image_digest(data: str) -> str:
    return hashlib.sha256(data.encode()).hexdigest()


def digest_images(value: Any) -> Any:
    """`value` with each long base64 or data-URL string (an image) replaced by {"sha256": ...}."""
    if isinstance(value, dict):
        return {k: digest_images(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [digest_images(v) for v in value]
    if isinstance(value, str) and len(value) >= IMAGE_MIN_CHARS and _looks_encoded(value):
        return {"sha256": image_digest(value)}
    return value


def _looks_encoded(text: str) -> bool:
    if text.startswith("data:"):
        return True
    head = text[:IMAGE_MIN_CHARS]
    return " " not in head and "\n" not in head


def _estimate(value: Any, image_side: int) -> int:
    if isinstance(value, dict):
        if set(value) == {"sha256"}:
            return estimate_image_tokens(image_side, image_side)
        return sum(_estimate(v, image_side) for k, v in value.items() if k != "type")
    if isinstance(value, list):
        return sum(_estimate(v, image_side) for v in value)
    if isinstance(value, str):
        return estimate_text_tokens(value)
    return 0
