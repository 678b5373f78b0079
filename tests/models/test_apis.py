"""The API layer under the one client: images kept by digest in every API's shapes, the first
difference of two requests named by its path, an unknown API refused by name."""

from __future__ import annotations

import base64

import pytest

from pytest_mobile_agent.models import ChatClient, ModelConfig, ModelError
from pytest_mobile_agent.models.apis import api_for, digest_images, image_digest
from pytest_mobile_agent.models.cache import first_difference

PNG = base64.b64encode(bytes(range(256)) * 4).decode()
URL = f"data:image/png;base64,{PNG}"


def test_images_are_kept_by_digest_whatever_the_api_calls_them() -> None:
    request = {
        "input": [
            {"type": "computer_call_output", "output": {"type": "input_image", "image_url": URL}},
            {"role": "user", "content": [{"type": "image", "source": {"type": "base64", "data": PNG}}]},
            {"role": "user", "content": "a short text stays " * 20},
        ]
    }
    slim = digest_images(request)
    assert slim["input"][0]["output"]["image_url"] == {"sha256": image_digest(URL)}
    assert slim["input"][1]["content"][0]["source"]["data"] == {"sha256": image_digest(PNG)}
    assert slim["input"][2] == request["input"][2]  # prose has spaces: never taken for an image


def test_the_first_difference_is_named_by_its_path() -> None:
    old = {"type": "computer_call_output", "call_id": "c1", "output": {"image_url": {"sha256": "aa"}}}
    new = {"type": "computer_call_output", "call_id": "c2", "output": {"image_url": {"sha256": "bb"}}}
    assert first_difference(old, new) == "call_id: 'c1' recorded, 'c2' asked"
    assert first_difference([1, 2], [1]) == "the value: 2 items recorded, 1 asked"
    assert first_difference(old, dict(old)) is None


def test_chat_slims_as_before_and_estimates_images_at_the_sent_side() -> None:
    chat = api_for("chat")
    request = {"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "data:x"}}]}]}
    digest = {"type": "image_url", "image_url": {"sha256": image_digest("data:x")}}
    assert chat.slim(request)["messages"][0]["content"][0] == digest
    assert chat.estimate(request, 1024) == 85 + 170 * 4


def test_an_unknown_api_is_refused_by_name() -> None:
    with pytest.raises(ModelError, match=r"no model API 'telepathy': known are (.*, )?chat\b"):
        ChatClient(ModelConfig(model="m", api="telepathy", base_url="http://127.0.0.1:9/v1"))
