"""A local OpenAI-compatible chat server on a real socket, playing a scripted model.

A script is a function from the request (the JSON body the client POSTed to
/v1/chat/completions) to an `Answer`, or a plain string (the answer's text). The server
records every request and every `usage` it sent, so a test can compare the run's figures
with what the "model" reported.

    from tests.model_server import Answer, ModelServer

    def script(request):
        if len(server.requests) == 1:
            return Answer(status=429, headers={"retry-after-ms": "5"})
        return '{"action_type": "status", "goal_status": "complete"}'

    with ModelServer(script) as server:
        run_pytest(f"--mobile-model-url={server.url}", "--mobile-model=test-model")

Or take the `model_server` fixture, which starts one whose script a test sets with
`model_server.script = ...`; a test folder gets it with one line in its conftest.py:

    from tests.model_server import model_server  # noqa: F401  (fixture)
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from tests.models import responses_route
from tests.models.anthropic_route import anthropic_message
from tests.models.gemini_route import gemini_content


@dataclass
class Answer:
    text: str = ""
    status: int = 200
    stall_s: float = 0.0  # wait this long before answering (a timeout, seen from the client)
    headers: dict[str, str] = field(default_factory=dict)
    body: str | None = None  # the raw body, for broken answers; else built from text and usage
    tokens_in: int | None = None  # None: computed from the request's text length
    tokens_out: int | None = None
    content: Any = None  # an API's structured answer (tool calls...): ROUTES wrap it, `text` is then unused


Script = Callable[[dict[str, Any]], "Answer | str"]


def default_usage(request: dict[str, Any], text: str) -> tuple[int, int]:
    """Deterministic usage figures that differ per request, so sums catch a lost or doubled step."""
    turns = request.get("messages") or request.get("input") or request.get("contents") or []
    return 7 + len(json.dumps(turns)) // 50, 1 + len(text) // 3


def chat_completion(request: dict[str, Any], answer: Answer, n: int, tokens: tuple[int, int]) -> dict[str, Any]:
    tin, tout = tokens
    return {
        "id": f"chatcmpl-{n}",
        "object": "chat.completion",
        "created": 0,
        "model": request.get("model", ""),
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": answer.text}}],
        "usage": {"prompt_tokens": tin, "completion_tokens": tout, "total_tokens": tin + tout},
    }


# The path each API posts to -> the answer's body as that API gives it (request, answer, its
# number, (input, output) tokens). A script answers every API the same way: text, or `content`.
ROUTES: dict[str, Callable[[dict[str, Any], Answer, int, tuple[int, int]], dict[str, Any]]] = {
    "/chat/completions": chat_completion,
    "/responses": responses_route.response,
    "/messages": anthropic_message,
    ":generateContent": gemini_content,  # /v1beta/models/{model}:generateContent
}


class ModelServer:
    def __init__(self, script: Script | None = None, model: str = "test-model") -> None:
        self.script: Script = script or (lambda request: "")
        self.model = model
        self.requests: list[dict[str, Any]] = []
        self.usage_sent: list[tuple[int, int]] = []  # (prompt_tokens, completion_tokens) of each 200 answer
        self.statuses: list[int] = []
        self.stalls = 0  # answers sent after a stall (the client has given up on them: not in usage_sent)
        self.authorizations: list[str] = []  # the Authorization header of each request
        self.seen: list[tuple[str, dict[str, str]]] = []  # the path and headers of each request
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def do_POST(self) -> None:  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))))
                with server.lock:
                    server.requests.append(body)
                    server.authorizations.append(self.headers.get("authorization", ""))
                    server.seen.append((self.path, {k.lower(): v for k, v in self.headers.items()}))
                path = self.path.split("?", 1)[0]  # Anthropic's beta endpoint adds ?beta=true
                route = next((build for suffix, build in ROUTES.items() if path.endswith(suffix)), None)
                if route is None:
                    return self._send(404, json.dumps({"error": {"message": f"no such path {self.path}"}}), {})
                try:
                    answer = server.script(body)
                except Exception as exc:  # a broken script shows as a 500 and in the test's output
                    answer = Answer(status=500, body=json.dumps({"error": {"message": f"script raised {exc!r}"}}))
                if isinstance(answer, str):
                    answer = Answer(answer)
                if answer.stall_s:
                    time.sleep(answer.stall_s)
                if answer.body is None and answer.status == 200:
                    said = answer.text if answer.content is None else json.dumps(answer.content)
                    tin, tout = default_usage(body, said)
                    tin = answer.tokens_in if answer.tokens_in is not None else tin
                    tout = answer.tokens_out if answer.tokens_out is not None else tout
                    payload = route({"model": server.model, **body}, answer, len(server.requests), (tin, tout))
                    with server.lock:
                        if answer.stall_s:
                            server.stalls += 1
                        else:
                            server.usage_sent.append((tin, tout))
                    text = json.dumps(payload)
                else:
                    text = (
                        answer.body
                        if answer.body is not None
                        else json.dumps({"error": {"message": f"scripted {answer.status}", "type": "scripted"}})
                    )
                with server.lock:
                    server.statuses.append(answer.status)
                self._send(answer.status, text, answer.headers)

            def _send(self, status: int, text: str, headers: dict[str, str]) -> None:
                data = text.encode()
                try:
                    self.send_response(status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    for k, v in headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a stall it timed out on)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True, name="model-server")

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def start(self) -> ModelServer:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self) -> ModelServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def totals(self) -> tuple[int, int]:
        with self.lock:
            return sum(u[0] for u in self.usage_sent), sum(u[1] for u in self.usage_sent)


@pytest.fixture
def model_server() -> Iterator[ModelServer]:
    """A local OpenAI-compatible server on a real socket; set `model_server.script` to play a model."""
    with ModelServer() as server:
        yield server
