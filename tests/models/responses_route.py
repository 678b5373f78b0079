"""The Responses API's answer body for the test model server (tests/model_server.py ROUTES):
`Answer(content=[...output items...])` as the items, else `Answer(text)` as one message."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tests.model_server import Answer


def message(text: str) -> dict[str, Any]:
    """An assistant message output item holding `text`."""
    return {
        "type": "message",
        "id": "msg_1",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": text, "annotations": []}],
    }


def response(request: dict[str, Any], answer: Answer, n: int, tokens: tuple[int, int]) -> dict[str, Any]:
    tin, tout = tokens
    output = answer.content if answer.content is not None else [message(answer.text)]
    return {
        "id": f"resp_{n}",
        "object": "response",
        "created_at": 0,
        "status": "completed",
        "model": request.get("model", ""),
        "output": output,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": request.get("tools", []),
        "truncation": request.get("truncation", "disabled"),
        "usage": {
            "input_tokens": tin,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": tout,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": tin + tout,
        },
    }
