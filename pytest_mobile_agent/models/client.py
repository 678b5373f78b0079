"""The model client: retries with backoff, usage and cost, record and replay (models/cache.py), the
same for every API it speaks (models/apis/)."""

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
from pytest_mobile_agent.models.apis import Api, Failure, api_for
from pytest_mobile_agent.models.cache import RequestCache, difference, next_call, request_key, slim_request
from pytest_mobile_agent.models.errors import ModelConfigError, ModelError, ReplayMiss
from pytest_mobile_agent.models.messages import DEFAULT_IMAGE_SIDE
from pytest_mobile_agent.models.pricing import cost_of, estimate_text_tokens, load_prices

RETRYABLE_STATUS = (408, 409, 429)  # and every 5xx
MAX_RETRY_AFTER_S = 60.0
MAX_BACKOFF_S = 30.0


@dataclass(frozen=True)
class ModelConfig:
    """Where and how to ask. Holds the NAME of the key's environment variable, never the key."""

    model: str
    base_url: str | None = None  # None: the API's own variable (OPENAI_BASE_URL...), else its public endpoint
    key_env: str | None = None  # None: the API's own (OPENAI_API_KEY, ANTHROPIC_API_KEY...)
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
    tool_version: str | None = None  # a computer-use tool's version, when not the one the model's name tells
    api: str = "chat"  # which API the endpoint speaks (models/apis/APIS): an agent's own choice

    @property
    def endpoint(self) -> str:
        return api_for(self.api).endpoint(self.base_url)

    @property
    def key_variable(self) -> str:
        return self.key_env or api_for(self.api).key_env


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
    data: dict[str, Any] = field(default_factory=dict)  # the answer as the API gave it (tool calls...)


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
    """One model endpoint, speaking `config.api`. `chat(messages)` (chat completions) and
    `ask(request)` (any API) return a `Reply` or raise `ModelUnavailable` (infrastructure),
    `ReplayMiss` or `ModelError`."""

    def __init__(self, config: ModelConfig, prices: dict[str, tuple[float, float]] | None = None) -> None:
        self.config = config
        self.prices = prices if prices is not None else load_prices(None)
        self.cache = RequestCache(config.cache_dir) if config.cache_dir else None
        if config.replay and self.cache is None:
            raise ModelError("--mobile-model-replay needs --mobile-model-cache DIR: the record to answer from")
        try:
            self.api: Api = api_for(config.api)
        except ValueError as exc:
            raise ModelError(str(exc)) from exc
        self.stats = ModelStats()
        self._lock = threading.Lock()
        self._sdk_module: Any = None
        self._sdk: Any = None if config.replay else self._make_sdk()

    def _make_sdk(self) -> Any:
        api, cfg = self.api, self.config
        self._sdk_module = require(api.sdk_module, f"the {api.name} model client (--mobile-model, the model agents)")
        key = os.environ.get(cfg.key_variable)
        if not key:
            if cfg.base_url is None and not (api.url_env and os.environ.get(api.url_env)):
                raise ModelError(
                    f"no API key: set the environment variable {cfg.key_variable} "
                    "(or name another with --mobile-model-key-env), or point --mobile-model-url at a local server"
                )
            key = "none"  # local servers (vLLM, Ollama, llama.cpp) take any key
        return api.make_sdk(self._sdk_module, key, cfg.base_url, cfg.timeout_s)

    def take_stats(self) -> ModelStats:
        """The counts so far, and start counting afresh (one episode's worth per call)."""
        with self._lock:
            stats, self.stats = self.stats, ModelStats()
        return stats

    def chat(self, messages: list[dict[str, Any]], **params: Any) -> Reply:
        """Ask once (chat completions). `params` go to the endpoint (temperature, max_tokens, ...)
        and into the cache key."""
        cfg = self.config
        defaults: dict[str, Any] = {"temperature": cfg.temperature}
        if cfg.max_tokens:
            defaults["max_tokens"] = cfg.max_tokens
        return self.ask({"messages": messages, **defaults, **params})

    def ask(self, request: dict[str, Any]) -> Reply:
        """Ask once: `request` is the API's own arguments but the model (models/apis/)."""
        data, retries, cached = self._answer(request)
        reply = self._reply(data, retries, cached, request)
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

    def _answer(self, request: dict[str, Any]) -> tuple[dict[str, Any], int, bool]:
        """The answer's JSON, the retries it took and whether the record gave it (models/cache.py):
        during an episode a recording asks the model every time and a replay serves the answer
        recorded at this call's place; outside one, an identical request is answered from the record."""
        cfg, cache, turns = self.config, self.cache, self.api.conversation
        if cache is None:
            return (*self._ask(request), False)
        slim = self.api.slim(request)
        asked = slim_request(cfg.model, slim[turns], {k: v for k, v in slim.items() if k != turns})
        call = next_call()
        if call is not None:
            nodeid, index = call
            if cfg.replay:
                return self._replayed(cache, nodeid, index, asked), 0, True
            data, retries = self._ask(request)
            cache.put_call(nodeid, index, asked, data)
            return data, retries, False
        key = request_key(cfg.model, request[turns], {k: v for k, v in request.items() if k != turns})
        found = cache.get(key)
        if found is not None:
            return found, 0, True
        if cfg.replay:
            raise ReplayMiss(
                f"--mobile-model-replay: no recorded answer in {cfg.cache_dir} for this request to {cfg.model} "
                f"outside an episode (key {key[:16]}): the prompt, screenshot or parameters differ from the recorded "
                "run; record it again without --mobile-model-replay, or point --mobile-model-cache at the right record"
            )
        data, retries = self._ask(request)
        cache.put(key, asked, data)
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

    def _reply(self, data: dict[str, Any], retries: int, cached: bool, request: dict[str, Any]) -> Reply:
        problem = self.api.malformed(data)
        if problem:  # a cached answer recorded before answers were checked
            raise ModelUnavailable(f"{self.config.model}: {problem}")
        text = self.api.text(data)
        counted = self.api.usage(data)
        if counted is not None:
            tokens_in, tokens_out = counted
        else:  # no usage: estimated, and marked so (never 0 tokens and $0)
            tokens_in = self.api.estimate(request, self.config.image_side)
            tokens_out = estimate_text_tokens(text)
        cost = cost_of(self.config.model, tokens_in, tokens_out, self.prices)
        model = data.get("model") or self.config.model
        return Reply(text, tokens_in, tokens_out, cost, retries, cached, model, counted is None, data)

    def _ask(self, request: dict[str, Any]) -> tuple[dict[str, Any], int]:
        cfg = self.config
        start = time.monotonic()
        for attempt in range(cfg.max_retries + 1):
            timeout = cfg.timeout_s
            if cfg.deadline_s is not None:
                timeout = min(timeout, cfg.deadline_s - (time.monotonic() - start))
            error: Exception
            wait = None
            try:
                data = self.api.create(self._sdk, cfg.model, request, timeout)
                problem = self.api.malformed(data)
                if not problem:
                    return data, attempt
                # An HTTP 200 that is no answer (an error body, no choices): the endpoint's fault.
                reason, error = "malformed", ModelError(problem)
            except Exception as exc:
                failure = self.api.failure(self._sdk_module, exc)
                if failure is None:
                    raise
                self._refuse_unless_passing(failure, exc)
                error, reason, wait = exc, failure.reason, _retry_after(failure.response)
                if failure.status is not None:
                    reason = "5xx" if failure.status >= 500 else str(failure.status)
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

    def _refuse_unless_passing(self, failure: Failure, exc: Exception) -> None:
        """Raise for an answer no retry changes: a refused key, an unknown model, a bad request."""
        cfg, status = self.config, failure.status
        if failure.reason != "status" or status is None:
            return
        if status in (401, 403):
            raise ModelConfigError(
                f"{cfg.endpoint} refused the API key in ${cfg.key_variable} ({status}: {failure.message}); "
                "set that variable to a valid key, or name another with --mobile-model-key-env"
            ) from exc
        if status == 404:
            raise ModelConfigError(
                f"{cfg.endpoint} knows no model {cfg.model!r} (404: {failure.message}); fix --mobile-model "
                "(or --mobile-model-url, if the endpoint is not the one meant)"
            ) from exc
        if status not in RETRYABLE_STATUS and status < 500:
            raise ModelError(f"{cfg.endpoint} answered {status} for {cfg.model}: {failure.message}") from exc


def _said(error: Exception) -> str:
    """The last failure, for the message once retries are spent: its type and first line."""
    text = str(error).strip().splitlines()[0][:200] if str(error).strip() else ""
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


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
