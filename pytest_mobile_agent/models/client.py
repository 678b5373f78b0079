"""The chat client: retries with backoff, usage and cost, record and replay (models/cache.py)."""

from __future__ import annotations

import os
import random
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from pytest_mobile_agent.errors import ModelUnavailable
from pytest_mobile_agent.extras import require
from pytest_mobile_agent.models.cache import RequestCache, difference, next_call, request_key, slim_request
from pytest_mobile_agent.models.errors import ModelConfigError, ModelError, ReplayMiss
from pytest_mobile_agent.models.messages import DEFAULT_IMAGE_SIDE
from pytest_mobile_agent.models.pricing import cost_of, estimate_request_tokens, estimate_text_tokens, load_prices

RETRYABLE_STATUS = (408, 409, 429)  # and every 5xx
MAX_RETRY_AFTER_S = 60.0
MAX_BACKOFF_S = 30.0


@dataclass(frozen=True)
class ModelConfig:
    """Where and how to ask. Holds the NAME of the key's environment variable, never the key."""

    model: str
    base_url: str | None = None  # None: the SDK's OPENAI_BASE_URL, else api.openai.com
    key_env: str = "OPENAI_API_KEY"
    cache_dir: str | None = None
    replay: bool = False
    timeout_s: float = 60.0
    max_retries: int = 5
    backoff_s: float = 1.0  # first wait; doubles per retry unless the server says Retry-After
    image_side: int = DEFAULT_IMAGE_SIDE
    deadline_s: float | None = None  # one chat() call, retries included, gives up after this long
    temperature: float = 0.0
    max_tokens: int | None = None
    coordinates: str | None = None  # a GUI model's coordinate convention, when not the one its name tells

    @property
    def endpoint(self) -> str:
        return self.base_url or os.environ.get("OPENAI_BASE_URL") or "https://api.openai.com/v1"


@dataclass
class Reply:
    text: str
    tokens_in: int
    tokens_out: int
    cost_usd: float | None
    retries: int = 0
    cached: bool = False
    model: str = ""
    estimated: bool = False  # the answer had no usage: its tokens are MobileAgentBench's estimate


@dataclass
class ModelStats:
    """Counts since the last `ChatClient.take_stats()`: what an episode record reports."""

    calls: int = 0
    retries: int = 0
    retry_reasons: Counter = field(default_factory=Counter)  # "429", "5xx", "timeout", "connection"
    cached: int = 0  # answered from the cache
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float | None = None
    estimated: int = 0  # answers without usage, whose tokens were estimated

    def as_record(self) -> dict[str, Any]:
        return {
            "model_estimated": self.estimated,
            "model_calls": self.calls,
            "model_retries": self.retries,
            "model_retry_reasons": dict(sorted(self.retry_reasons.items())),
            "model_cached": self.cached,
        }


class ChatClient:
    """One OpenAI-compatible endpoint. `chat(messages)` returns a `Reply` or raises
    `ModelUnavailable` (infrastructure), `ReplayMiss` or `ModelError`."""

    def __init__(self, config: ModelConfig, prices: dict[str, tuple[float, float]] | None = None) -> None:
        self.config = config
        self.prices = prices if prices is not None else load_prices(None)
        self.cache = RequestCache(config.cache_dir) if config.cache_dir else None
        if config.replay and self.cache is None:
            raise ModelError("--mobile-model-replay needs --mobile-model-cache DIR: the record to answer from")
        self.stats = ModelStats()
        self._lock = threading.Lock()
        self._sdk: Any = None if config.replay else self._make_sdk()

    def _make_sdk(self) -> Any:
        openai = require("openai", "the model client (--mobile-model, the model agents and judges)")

        key = os.environ.get(self.config.key_env)
        if not key:
            if self.config.base_url is None and not os.environ.get("OPENAI_BASE_URL"):
                raise ModelError(
                    f"no API key: set the environment variable {self.config.key_env} "
                    "(or name another with --mobile-model-key-env), or point --mobile-model-url at a local server"
                )
            key = "none"  # local servers (vLLM, Ollama, llama.cpp) take any key
        return openai.OpenAI(api_key=key, base_url=self.config.base_url, max_retries=0, timeout=self.config.timeout_s)

    def take_stats(self) -> ModelStats:
        """The counts so far, and start counting afresh (one episode's worth per call)."""
        with self._lock:
            stats, self.stats = self.stats, ModelStats()
        return stats

    def chat(self, messages: list[dict[str, Any]], **params: Any) -> Reply:
        """Ask once. `params` go to the endpoint (temperature, max_tokens, ...) and into the cache key."""
        cfg = self.config
        defaults: dict[str, Any] = {"temperature": cfg.temperature}
        if cfg.max_tokens:
            defaults["max_tokens"] = cfg.max_tokens
        params = {**defaults, **params}
        data, retries, cached = self._answer(messages, params)
        reply = self._reply(data, retries, cached, messages)
        with self._lock:
            s = self.stats
            s.calls += 1
            s.cached += cached
            s.tokens_in += reply.tokens_in
            s.tokens_out += reply.tokens_out
            s.estimated += reply.estimated
            if reply.cost_usd is not None:
                s.cost_usd = (s.cost_usd or 0.0) + reply.cost_usd
        return reply

    def _answer(self, messages: list[dict[str, Any]], params: dict[str, Any]) -> tuple[dict[str, Any], int, bool]:
        """The answer's JSON, the retries it took and whether the record gave it (models/cache.py):
        during an episode a recording asks the model every time and a replay serves the answer
        recorded at this call's place; outside one, an identical request is answered from the record."""
        cfg, cache = self.config, self.cache
        if cache is None:
            return (*self._ask(messages, params), False)
        call = next_call()
        if call is not None:
            nodeid, index = call
            if cfg.replay:
                return self._replayed(cache, nodeid, index, slim_request(cfg.model, messages, params)), 0, True
            data, retries = self._ask(messages, params)
            cache.put_call(nodeid, index, slim_request(cfg.model, messages, params), data)
            return data, retries, False
        key = request_key(cfg.model, messages, params)
        found = cache.get(key)
        if found is not None:
            return found, 0, True
        if cfg.replay:
            raise ReplayMiss(
                f"--mobile-model-replay: no recorded answer in {cfg.cache_dir} for this request to {cfg.model} "
                f"outside an episode (key {key[:16]}): the prompt, screenshot or parameters differ from the recorded "
                "run; record it again without --mobile-model-replay, or point --mobile-model-cache at the right record"
            )
        data, retries = self._ask(messages, params)
        cache.put(key, cfg.model, messages, params, data)
        return data, retries, False

    def _replayed(self, cache: RequestCache, nodeid: str, index: int, asked: dict[str, Any]) -> dict[str, Any]:
        """The answer recorded for an episode's call at `index`, when the request is the one recorded there."""
        found = cache.recorded_call(nodeid, index)
        why = None
        if found is None:
            held = cache.recorded_calls(nodeid)
            older = " (it was made by an earlier version, which keyed calls by request only)"
            why = (
                f"the record holds {held} calls of this episode, this is call {index + 1}"
                if held
                else "the record holds no calls of this episode" + (older if cache.older_layout() else "")
            )
        else:
            why = difference(found.get("request") or {}, asked)
        if why is None and found is not None:
            response: dict[str, Any] = found["response"]
            return response
        raise ReplayMiss(
            f"--mobile-model-replay: no recorded answer in {self.config.cache_dir} for call {index} "
            f"(counting from 0) of episode {nodeid} to {asked['model']}: {why}; record it again without "
            "--mobile-model-replay, or point --mobile-model-cache at the right record"
        )

    def _reply(self, data: dict[str, Any], retries: int, cached: bool, messages: list[dict[str, Any]]) -> Reply:
        problem = malformed(data)
        if problem:  # a cached answer recorded before answers were checked
            raise ModelUnavailable(f"{self.config.model}: {problem}")
        text = data["choices"][0]["message"].get("content") or ""
        usage = data.get("usage")
        counted = isinstance(usage, dict) and isinstance(usage.get("prompt_tokens"), int)
        if counted and isinstance(usage, dict):
            tokens_in, tokens_out = int(usage["prompt_tokens"]), int(usage.get("completion_tokens") or 0)
        else:  # no usage: estimated, and marked so (never 0 tokens and $0)
            tokens_in = estimate_request_tokens(messages, self.config.image_side)
            tokens_out = estimate_text_tokens(str(text))
        cost = cost_of(self.config.model, tokens_in, tokens_out, self.prices)
        model = data.get("model") or self.config.model
        return Reply(text, tokens_in, tokens_out, cost, retries, cached, model, estimated=not counted)

    def _ask(self, messages: list[dict[str, Any]], params: dict[str, Any]) -> tuple[dict[str, Any], int]:
        import openai  # present: _make_sdk required it

        cfg = self.config
        start = time.monotonic()
        for attempt in range(cfg.max_retries + 1):
            timeout = cfg.timeout_s
            if cfg.deadline_s is not None:
                timeout = min(timeout, cfg.deadline_s - (time.monotonic() - start))
            error: Exception
            try:
                response = self._sdk.chat.completions.create(
                    model=cfg.model, messages=messages, timeout=timeout, **params
                )
                data = response.model_dump() if hasattr(response, "model_dump") else response
                problem = malformed(data)
                if not problem:
                    return data, attempt
                # An HTTP 200 that is no answer (an error body, no choices): the endpoint's fault.
                reason, error, wait = "malformed", ModelError(problem), None
            except openai.APITimeoutError as exc:  # a subclass of APIConnectionError: test it first
                reason, error, wait = "timeout", exc, None
            except openai.APIConnectionError as exc:
                reason, error, wait = "connection", exc, None
            except openai.APIStatusError as exc:
                status = exc.status_code
                if status in (401, 403):
                    raise ModelConfigError(
                        f"{cfg.endpoint} refused the API key in ${cfg.key_env} ({status}: {exc.message}); "
                        "set that variable to a valid key, or name another with --mobile-model-key-env"
                    ) from exc
                if status == 404:
                    raise ModelConfigError(
                        f"{cfg.endpoint} knows no model {cfg.model!r} (404: {exc.message}); fix --mobile-model "
                        "(or --mobile-model-url, if the endpoint is not the one meant)"
                    ) from exc
                if status not in RETRYABLE_STATUS and status < 500:
                    raise ModelError(f"{cfg.endpoint} answered {status} for {cfg.model}: {exc.message}") from exc
                reason, error, wait = ("5xx" if status >= 500 else str(status)), exc, _retry_after(exc.response)
            except (openai.APIResponseValidationError, ValueError) as exc:  # a body that is not JSON
                reason, error, wait = "malformed", exc, None
            backoff = min(MAX_BACKOFF_S, cfg.backoff_s * 2**attempt) * random.uniform(0.75, 1.25)
            pause = wait if wait is not None else backoff
            if cfg.deadline_s is not None and time.monotonic() - start + pause >= cfg.deadline_s:
                spent = time.monotonic() - start
                raise ModelUnavailable(
                    f"model endpoint {cfg.endpoint} still failing after {attempt} retries and {spent:.1f} s, "
                    f"the time one step may wait (last: {reason}: {_said(error)})"
                ) from error
            if attempt == cfg.max_retries:
                raise ModelUnavailable(
                    f"model endpoint {cfg.endpoint} still failing after {cfg.max_retries} retries "
                    f"(last: {reason}: {_said(error)})"
                ) from error
            with self._lock:
                self.stats.retries += 1
                self.stats.retry_reasons[reason] += 1
            time.sleep(pause)
        raise AssertionError("unreachable")


def _said(error: Exception) -> str:
    """The last failure, for the message once retries are spent: its type and first line."""
    text = str(error).strip().splitlines()[0][:200] if str(error).strip() else ""
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def malformed(data: Any) -> str | None:
    """What makes an HTTP 200's body no chat answer (an error object, no choices, no message),
    or None when it is one."""
    if not isinstance(data, dict):
        return f"the answer is not a JSON object: {str(data)[:200]}"
    choices = data.get("choices")
    if not choices or not isinstance(choices, list) or not isinstance(choices[0], dict):
        return f"the answer has no choices: {str(data)[:200]}"
    if not isinstance(choices[0].get("message"), dict):
        return f"the answer's choice has no message: {str(data)[:200]}"
    return None


def _retry_after(response: Any) -> float | None:
    """The server's own wait (Retry-After seconds, or OpenAI's retry-after-ms), if sane."""
    headers = getattr(response, "headers", None) or {}
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        try:
            value = float(headers.get(name, "")) * scale
        except (TypeError, ValueError):
            continue
        if 0 <= value <= MAX_RETRY_AFTER_S:
            return value
    return None
