"""The Gemini API's generateContent answer body for tests/model_server.py: an
`Answer(content=[...])` is the candidate's parts (text, function_call), a plain text answer one
text part; usage as `usageMetadata`, in the API's own camelCase."""

from __future__ import annotations

from typing import Any


def gemini_content(request: dict[str, Any], answer: Any, n: int, tokens: tuple[int, int]) -> dict[str, Any]:
    parts = answer.content if answer.content is not None else [{"text": answer.text}]
    tin, tout = tokens
    return {
        "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": tin, "candidatesTokenCount": tout, "totalTokenCount": tin + tout},
        "modelVersion": request.get("model", ""),
        "responseId": f"resp-{n}",
    }
