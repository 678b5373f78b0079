"""The --mobile-model* options (each with an ini twin) and the ModelConfig they make."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_mobile_agent.models.client import ModelConfig
from pytest_mobile_agent.models.messages import DEFAULT_IMAGE_SIDE

OPTIONS = (
    # (flag, dest/ini name, type, help)
    (
        "--mobile-model",
        "mobile_model",
        str,
        "model name for the built-in model agents (--agent=t3a, ui-tars, openai-computer-use...: the docs' table "
        "of agents lists them) and the model judges, e.g. gpt-4o",
    ),
    (
        "--mobile-model-url",
        "mobile_model_url",
        str,
        "OpenAI-compatible endpoint, e.g. http://localhost:8000/v1 (default: $OPENAI_BASE_URL, else api.openai.com)",
    ),
    (
        "--mobile-model-key-env",
        "mobile_model_key_env",
        str,
        "environment variable that holds the API key (default: the API's own, OPENAI_API_KEY for OpenAI-compatible "
        "endpoints, ANTHROPIC_API_KEY, GEMINI_API_KEY); the key itself is written nowhere",
    ),
    (
        "--mobile-model-cache",
        "mobile_model_cache",
        str,
        "directory recording every model request and answer, one file per call: during an episode keyed by "
        "the episode and the call's place in it (the model is asked every time), outside one by a hash of the request",
    ),
    (
        "--mobile-model-timeout",
        "mobile_model_timeout",
        float,
        "seconds per model request before it is retried (default 60)",
    ),
    (
        "--mobile-model-retries",
        "mobile_model_retries",
        int,
        "retries on 429, 5xx, timeouts (default 5); after them the endpoint is down: an infrastructure error",
    ),
    (
        "--mobile-model-image-side",
        "mobile_model_image_side",
        int,
        f"longest side, in px, screenshots are sent at (default {DEFAULT_IMAGE_SIDE})",
    ),
    (
        "--mobile-model-coordinates",
        "mobile_model_coordinates",
        str,
        "coordinate convention of a native GUI model agent (ui-tars, qwen-vl, autoglm, gui-owl, agentcpm-gui): "
        "absolute (pixels of the "
        "image as the model resized it) or relative (a 0-1000 grid); default: the one the model's name tells, "
        "else the newest",
    ),
    (
        "--mobile-model-tool-version",
        "mobile_model_tool_version",
        str,
        "computer-use tool version: openai-computer-use's computer_use_preview or computer, "
        "anthropic-computer-use's computer_20250124 or computer_20251124; "
        "default: the one the model's name tells, else the newest",
    ),
    (
        "--mobile-safety-checks",
        "mobile_safety_checks",
        str,
        "what a computer-use agent does with the API's pending safety checks: surface (default: the episode "
        "stops, its record says why) or acknowledge (each is acknowledged and recorded, and the action goes ahead)",
    ),
)
SAFETY_CHECKS = ("surface", "acknowledge")  # stop and say why; acknowledge and go ahead
COORDINATES = ("absolute", "relative")  # pixels of the image as the model resized it; a 0-1000 grid
# The computer-use tools' versions, by the API that declares them.
TOOL_VERSIONS = {
    "responses": ("computer_use_preview", "computer"),
    "anthropic": ("computer_20250124", "computer_20251124"),
}
REPLAY_HELP = "answer model requests from --mobile-model-cache only; a request not recorded there is an error"


def add_options(parser: pytest.Parser) -> None:
    group = parser.getgroup("mobile-agent")
    for flag, dest, typ, help_ in OPTIONS:
        group.addoption(flag, dest=dest, type=typ, default=None, help=help_)
        parser.addini(dest, help=help_)
    group.addoption(
        "--mobile-model-replay", dest="mobile_model_replay", action="store_true", default=None, help=REPLAY_HELP
    )
    parser.addini("mobile_model_replay", help=REPLAY_HELP, type="bool", default=False)


def model_config(
    config: pytest.Config, step_timeout: float | None = None, model: str | None = None, api: str = "chat"
) -> ModelConfig | None:
    """The configuration the options describe, or None when no --mobile-model is given. A step
    makes up to two calls (an action, a summary): each gives up, as an infrastructure error, in
    less than half the step's time, before the harness would call the agent hung. `model`
    replaces --mobile-model (the judges' --mobile-judge-model); `api` is the API the agent speaks
    (models/apis/)."""

    def get(name: str) -> Any:
        value = config.getoption(name)
        return value if value is not None else config.getini(name)

    model = model or get("mobile_model")
    if not model:
        return None
    coordinates = get("mobile_model_coordinates") or None
    if coordinates not in (None, *COORDINATES):
        raise pytest.UsageError(f"--mobile-model-coordinates must be {' or '.join(COORDINATES)}, not {coordinates!r}")
    safety_checks = get("mobile_safety_checks") or "surface"
    if safety_checks not in SAFETY_CHECKS:
        raise pytest.UsageError(f"--mobile-safety-checks must be {' or '.join(SAFETY_CHECKS)}, not {safety_checks!r}")
    tool_version = get("mobile_model_tool_version") or None
    known = TOOL_VERSIONS.get(api)
    if tool_version is not None and known is not None and tool_version not in known:
        versions = " or ".join(known)
        raise pytest.UsageError(f"--mobile-model-tool-version must be {versions}, not {tool_version!r}")
    return ModelConfig(
        model=model,
        base_url=get("mobile_model_url") or None,
        key_env=get("mobile_model_key_env") or None,
        cache_dir=get("mobile_model_cache") or None,
        replay=bool(get("mobile_model_replay")),
        timeout_s=float(get("mobile_model_timeout") or 60.0),
        max_retries=int(get("mobile_model_retries") if get("mobile_model_retries") not in (None, "") else 5),
        image_side=int(get("mobile_model_image_side") or DEFAULT_IMAGE_SIDE),
        coordinates=coordinates,
        tool_version=tool_version,
        deadline_s=step_timeout * 0.45 if step_timeout else None,
        api=api,
        safety_checks=safety_checks,
    )
