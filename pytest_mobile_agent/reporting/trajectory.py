"""Per-test trajectory folders: a PNG per step, actions as JSON lines, the final hierarchy, the
episode record and, when the Allure report draws the actions anyway, a contact sheet (every
step's screen with its action drawn on it). Written by the process that ran the episode, as it
finishes."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from pytest_mobile_agent import drawing
from pytest_mobile_agent.redaction import redact


def slug(nodeid: str) -> str:
    return re.sub(r"[^\w.-]+", "-", nodeid).strip("-")[:180]


def write(root: Path, nodeid: str, episode: Any, record: dict[str, Any], *, contact_sheet: bool = False) -> Path:
    folder = root / slug(nodeid)
    if episode.retried:
        folder = folder.with_name(folder.name + "-retry1")
    folder.mkdir(parents=True, exist_ok=True)
    if episode.initial_screenshot:
        (folder / "step-000.png").write_bytes(episode.initial_screenshot)
    lines = []
    for step in episode.steps:
        if step.screenshot:
            (folder / f"step-{step.index:03d}.png").write_bytes(step.screenshot)
        lines.append(
            json.dumps(
                {
                    "step": step.index,
                    "action": step.action,
                    "valid": step.valid,
                    "error": step.error,
                    "reasoning": step.reasoning,
                    "success": step.success,
                    "agent_s": step.agent_s,
                    "device_s": step.device_s,
                    "harness_s": step.harness_s,
                    "tokens_in": step.tokens_in,
                    "tokens_out": step.tokens_out,
                },
                ensure_ascii=False,
            )
        )
    (folder / "actions.jsonl").write_text(redact("\n".join(lines) + ("\n" if lines else "")))
    if episode.final_hierarchy:
        (folder / "final.xml").write_text(redact(episode.final_hierarchy))
    if contact_sheet:  # decoding and drawing every step costs ~20 ms a step: only when drawn for Allure
        drawing.encode_to(drawing.trajectory_sheet(episode), folder / "contact-sheet.png")
    (folder / "episode.json").write_text(redact(json.dumps(record, indent=2, default=str, ensure_ascii=False)))
    return folder
