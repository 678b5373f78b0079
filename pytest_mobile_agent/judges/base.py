"""What every judge gets and gives back.

A judge sees the episode as a `Trajectory`: the prompt, the actions (with the element each
touched and whether it succeeded), the screenshots and hierarchies (the first is the screen
before any action), the accessibility events, the outputs of API actions, and the inputs the
task declares for judges (key components, CheckPoints, reference substates). It returns a
`Verdict`: passed (None when it could not judge), a reason, and what judging cost.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from pytest_mobile_agent.actions import Selector
from pytest_mobile_agent.device.ui_tree import UiTree

if TYPE_CHECKING:
    from pytest_mobile_agent.episode import Episode

# The inputs a task may declare for judges (`@task(key_components=..., ...)`).
INPUT_NAMES = ("key_components", "checkpoints", "substates", "subtasks")


@dataclass
class TrajectoryStep:
    """One agent action, described the way Mobile-Bench's action history does: what was done,
    on which element (its package, id, text and description), and whether it succeeded."""

    index: int
    action: dict[str, Any]
    valid: bool
    output: str = ""
    error: str | None = None
    element: dict[str, str] = field(default_factory=dict)
    package_after: str = ""

    @property
    def kind(self) -> str:
        return str(self.action.get("action", ""))

    def history_entry(self) -> str:
        """The action as one line of text, the form CheckPoints match key phrases against."""
        if self.kind == "api":
            status = "API execution successful" if self.valid else f"failed: {self.error}"
            return f"API call: {self.action.get('command', '')}. [Call result]: {status}"
        args = {**{k: v for k, v in self.action.items() if k != "selector"}, **self.action.get("selector", {})}
        parts = [f"{self.kind}({', '.join(f'{k}={v}' for k, v in args.items() if k != 'action')})"]
        if self.element:
            parts.append("element(" + ", ".join(f"{k}={v}" for k, v in self.element.items() if v) + ")")
        if self.package_after:
            parts.append(f"foreground={self.package_after}")
        return " ".join(parts)


@dataclass
class Trajectory:
    task: str
    prompt: str
    apps: tuple[str, ...]
    steps: list[TrajectoryStep]
    screenshots: list[bytes | None]  # [before any action, after step 1, ...]
    hierarchies: list[str | None]
    events: Any = None  # an EventLog
    inputs: dict[str, Any] = field(default_factory=dict)
    termination: str | None = None

    @property
    def api_outputs(self) -> list[str]:
        return [s.output for s in self.steps if s.kind == "api" and s.valid]

    def successful_history(self) -> list[str]:
        """Mobile-Bench: "CheckPoints only check successfully executed instructions"."""
        return [s.history_entry() for s in self.steps if s.valid]

    @classmethod
    def from_episode(
        cls, episode: Episode, *, events: Any = None, inputs: dict[str, Any] | None = None, key: str | None = None
    ) -> Trajectory:
        screens = [episode.initial_screenshot] + [s.screenshot for s in episode.steps]
        trees = [episode.initial_hierarchy] + [s.hierarchy for s in episode.steps]
        steps = []
        for i, s in enumerate(episode.steps):
            before, after = UiTree(trees[i] or ""), UiTree(trees[i + 1] or "")
            steps.append(
                TrajectoryStep(
                    s.index,
                    dict(s.action),
                    s.valid,
                    s.output,
                    s.error,
                    _element(s.action, before),
                    after.package if trees[i + 1] else "",
                )
            )
        return cls(
            key or episode.task.name,
            episode.task.prompt,
            tuple(episode.task.apps),
            steps,
            screens,
            trees,
            events,
            dict(inputs or {}),
            episode.termination,
        )


def _element(action: dict[str, Any], tree: UiTree) -> dict[str, str]:
    """The element an action touched: by its selector, else the smallest labelled node under the point."""
    node = None
    if action.get("selector"):
        node = tree.select(Selector.of(**action["selector"]))  # type: ignore[arg-type]
    elif action.get("x") is not None and action.get("y") is not None:
        x, y = int(action["x"]), int(action["y"])
        hits = [n for n in tree.nodes() if n.bounds[0] <= x < n.bounds[2] and n.bounds[1] <= y < n.bounds[3]]
        hits.sort(key=lambda n: (n.bounds[2] - n.bounds[0]) * (n.bounds[3] - n.bounds[1]))
        node = next((n for n in hits if n.text or n.desc), hits[0] if hits else None)
    if node is None:
        return {}
    return {"package": node.package, "id": node.id, "text": node.text, "desc": node.desc}


@dataclass
class Verdict:
    passed: bool | None  # None: the judge could not decide (missing inputs, an unusable answer)
    reason: str
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "passed": self.passed,
            "reason": self.reason,
            "tokens_in": self.tokens_in,
            "tokens_out": self.tokens_out,
            "cost_usd": self.cost_usd,
            "details": self.details,
        }


class Judge(Protocol):
    name: str
    needs_screenshots: bool

    def judge(self, trajectory: Trajectory) -> Verdict: ...
