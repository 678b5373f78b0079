"""Per-test trajectory folders: the screens, the actions as JSON lines, the final hierarchy, the
episode record and a contact sheet (every kept step's screen with its action drawn on it).

Each actions.jsonl line carries "screen": the sha256 of the screenshot the agent was given
before that step (the device's own PNG), so two runs can be compared step by step.

step-000.png is the first screen, step-NNN.png the screen after step NNN: 540 px wide in 256
colours (reporting/screens.py), the last one the device's own full-size PNG. With
`--mobile-keep-screens=failed` a passing task keeps only the first and the last. Written by the
process that ran the episode, in its report thread, as the episode finishes.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from pytest_mobile_agent.redaction import redact
from pytest_mobile_agent.reporting import screens


def slug(nodeid: str) -> str:
    return re.sub(r"[^\w.-]+", "-", nodeid).strip("-")[:180]


def screen_digest(png: bytes | None) -> str | None:
    """The sha256 of the screenshot an agent was given, as the device sent it (before any
    drawing or scaling): two runs that showed the agent the same pixels agree on it."""
    return hashlib.sha256(png).hexdigest() if png is not None else None


def folder_of(root: Path, nodeid: str, retried: bool) -> Path:
    """Where an episode's trajectory goes under `--mobile-artifacts` (a retry beside the first try)."""
    folder = root / slug(nodeid)
    return folder.with_name(folder.name + "-retry1") if retried else folder


def write(root: Path, nodeid: str, episode: Any, record: dict[str, Any], shown: screens.Screens | None) -> Path:
    folder = folder_of(root, nodeid, episode.retried)
    folder.mkdir(parents=True, exist_ok=True)
    if shown is not None:
        for frame in shown.frames:  # frame i shows the screen before step i: the one after step i - 1
            if frame.screen is not None:
                screens.write_later(folder / f"step-{frame.index - 1:03d}.png", frame.screen)
        if shown.final:
            shown.files["final screen"] = folder / f"step-{shown.last_index:03d}.png"
            screens.write_later(shown.files["final screen"], shown.final)
        if shown.sheet:
            shown.files["contact sheet"] = folder / "contact-sheet.png"
            screens.write_later(shown.files["contact sheet"], shown.sheet)
    given = [episode.initial_screenshot] + [step.screenshot for step in episode.steps]
    lines = [
        json.dumps(
            {
                "step": step.index,
                "action": step.action,
                "screen": screen_digest(given[position]),
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
        for position, step in enumerate(episode.steps)
    ]
    screens.write_later(folder / "actions.jsonl", redact("\n".join(lines) + ("\n" if lines else "")))
    if episode.final_hierarchy:
        screens.write_later(folder / "final.xml", redact(episode.final_hierarchy))
    screens.write_later(folder / "episode.json", redact(json.dumps(record, indent=2, default=str, ensure_ascii=False)))
    return folder
