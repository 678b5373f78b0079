"""Model prices: USD per million input and output tokens, and the cost of a call or an episode."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

# USD per million tokens (input, output); override or extend with --mobile-prices FILE.json.
DEFAULT_PRICES: dict[str, tuple[float, float]] = {
    "gpt-4-vision-preview": (10.0, 30.0),
    "gpt-4-turbo": (10.0, 30.0),
    "gpt-4o": (2.5, 10.0),
    "gpt-4o-mini": (0.15, 0.6),
    "gpt-4.1": (2.0, 8.0),
    "gpt-4.1-mini": (0.4, 1.6),
    "gpt-4.1-nano": (0.1, 0.4),
    "o4-mini": (1.1, 4.4),
    "computer-use-preview": (3.0, 12.0),
    "gpt-5.4": (2.5, 15.0),
    "claude-opus-4-7": (5.0, 25.0),
    "claude-opus-4-6": (5.0, 25.0),
    "claude-opus-4-5": (5.0, 25.0),
    "claude-opus-4-1": (15.0, 75.0),
    "claude-opus-4": (15.0, 75.0),
    "claude-sonnet-4-6": (3.0, 15.0),
    "claude-sonnet-4-5": (3.0, 15.0),
    "claude-sonnet-4": (3.0, 15.0),
    "claude-haiku-4-5": (1.0, 5.0),
    "claude-3-7-sonnet": (3.0, 15.0),
    "claude-3-5-haiku": (0.8, 4.0),
    "claude-3-5-sonnet": (3.0, 15.0),
    "claude-3-haiku": (0.25, 1.25),
    "gemini-2.5-computer-use-preview": (1.25, 10.0),
    "gemini-1.5-pro": (1.25, 5.0),
    "gemini-1.5-flash": (0.075, 0.3),
    "gemini-2.0-flash": (0.1, 0.4),
}


def load_prices(path: str | None) -> dict[str, tuple[float, float]]:
    prices = dict(DEFAULT_PRICES)
    if path:
        raw = json.loads(Path(path).read_text())
        for model, entry in raw.items():
            if isinstance(entry, dict):
                prices[model] = (float(entry["input"]), float(entry["output"]))
            else:
                prices[model] = (float(entry[0]), float(entry[1]))
    return prices


def price_of(model: str | None, prices: dict[str, tuple[float, float]]) -> tuple[float, float] | None:
    """The model's price, or that of the longest listed name it extends (gpt-4o-2024-08-06 -> gpt-4o)."""
    if not model:
        return None
    if model in prices:
        return prices[model]
    stems = [name for name in prices if model.startswith(name + "-")]
    return prices[max(stems, key=len)] if stems else None


def cost_of(model: str | None, tokens_in: int, tokens_out: int, prices: dict[str, tuple[float, float]]) -> float | None:
    price = price_of(model, prices)
    if price is None:
        return None
    price_in, price_out = price
    return (tokens_in * price_in + tokens_out * price_out) / 1_000_000


def estimate_image_tokens(width: int, height: int) -> int:
    """MobileAgentBench's rule (GPT-4V): 85 per image plus 170 per 512x512 tile."""
    return 85 + 170 * (-(-width // 512)) * (-(-height // 512))


def estimate_text_tokens(text: str) -> int:
    """MobileAgentBench's rule: 4 characters a token."""
    return -(-len(text) // 4)


def estimate_request_tokens(messages: list[dict[str, Any]], image_side: int) -> int:
    """A request's input tokens by those rules, each image counted at the side it is sent at."""
    total = 0
    for message in messages:
        content = message.get("content")
        parts = content if isinstance(content, list) else [{"type": "text", "text": str(content or "")}]
        for part in parts:
            if part.get("type") == "image_url":
                total += estimate_image_tokens(image_side, image_side)
            else:
                total += estimate_text_tokens(str(part.get("text") or ""))
    return total
