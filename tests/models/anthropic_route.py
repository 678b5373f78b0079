"""The Messages API's answer body for tests/model_server.py: a `Answer(content=[...])` is the
answer's content blocks (text, tool_use), a plain text answer one text block. A tool call ends
the turn with stop_reason "tool_use", as the API does."""

from __future__ import annotations

from typing import Any


def anthropic_message(request: dict[str, Any], answer: Any, n: int, tokens: tuple[int, int]) -> dict[str, Any]:
    content = answer.content if answer.content is not None else [{"type": "text", "text": answer.text}]
    calls = any(b.get("type") == "tool_use" for b in content)
    tin, tout = tokens
    return {
        "id": f"msg_{n:024d}",
        "type": "message",
        "role": "assistant",
        "model": request.get("model", ""),
        "content": content,
        "stop_reason": "tool_use" if calls else "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": tin, "output_tokens": tout},
    }
