"""What the built-in model agents share: the client, prompt files, history, usage, giving up.

A subclass builds the messages for a step (`messages`) and reads the answer (`parse`); the base
does the rest: asks the model, turns an unreadable answer into an invalid step, puts the
reasoning and the tokens on the action, and keeps the history the next prompt shows.

Variants, in a few lines (see the README):

    class TerseT3A(T3A):
        name = "t3a-terse"
        prompt_dir = Path(__file__).parent / "my_prompts"   # any file found there wins
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from pytest_mobile_agent.actions import Action, Done
from pytest_mobile_agent.agents.baselines.answers import AnswerError, invalid

if TYPE_CHECKING:
    from pytest_mobile_agent.agents import Observation, TaskInfo
    from pytest_mobile_agent.models import ChatClient, Reply

PROMPTS = Path(__file__).parent.parent / "prompts"
INFEASIBLE = "infeasible: "  # how a give-up reads in the reasoning of the final Done


@dataclass
class Turn:
    """One earlier step, as the next prompt tells it."""

    number: int
    action: str  # the answer's action, as the model wrote it
    summary: str  # the model's reasoning or summary of the step
    error: str | None = None  # why the harness rejected it
    output: str = ""  # what an `api` action printed


class ModelAgent:
    """The shared loop of a model-backed step agent. `client` is set by the plugin from the
    --mobile-model* options (or given here, e.g. by a test or a benchmark)."""

    name = "model-agent"
    needs_model = True
    needs_screenshot = False
    prompt_dir: Path | None = None  # a variant's folder; a file missing there comes from PROMPTS
    prompt_files: ClassVar[dict[str, str]] = {}

    def __init__(self, client: ChatClient | None = None) -> None:
        self.client = client
        self.history: list[Turn] = []
        self.gave_up: str | None = None
        self.task: TaskInfo | None = None
        self.overhead_s: list[float] = []  # per step: everything but waiting for the model
        self.overhead_cpu_s: list[float] = []  # the same in this thread's CPU time (steadier on a loaded machine)
        self._prompts: dict[str, str] = {}

    @property
    def model(self) -> str | None:
        return self.client.config.model if self.client is not None else None

    @property
    def image_side(self) -> int:
        return self.client.config.image_side if self.client is not None else 1024

    def prompt(self, key: str) -> str:
        if key not in self._prompts:
            filename = self.prompt_files[key]
            own = self.prompt_dir / filename if self.prompt_dir is not None else None
            self._prompts[key] = (own if own is not None and own.is_file() else PROMPTS / filename).read_text()
        return self._prompts[key]

    def reset(self, task: TaskInfo) -> None:
        self.task, self.history, self.gave_up = task, [], None
        if self.client is not None:
            self.client.take_stats()  # what came before belongs to no episode of ours

    # -- to implement ---------------------------------------------------------------------------
    def messages(self, obs: Observation) -> list[dict[str, Any]]:
        raise NotImplementedError

    def parse(self, text: str, obs: Observation) -> Action:
        """The action the answer asks for; AnswerError when it cannot be read."""
        raise NotImplementedError

    def reasoning(self, text: str) -> str:
        return text.strip()

    def action_text(self, text: str) -> str:
        return text.strip()

    # -- the loop -------------------------------------------------------------------------------
    def step(self, obs: Observation) -> Action:
        if self.client is None:
            raise RuntimeError(f"{self.name}: no model client (pass --mobile-model NAME)")
        if self.task is None or obs.task is not self.task:
            self.reset(obs.task)
        self._note_result(obs)
        if self.needs_screenshot:
            _ = obs.screenshot  # a capture, when the harness has none yet, is the device's time: not ours
        t0, c0 = time.perf_counter(), time.thread_time()
        pre = self.before(obs)
        messages = self.messages(obs)
        built, c_built = time.perf_counter(), time.thread_time()
        reply = self.ask(messages)
        t1, c1 = time.perf_counter(), time.thread_time()
        try:
            action = self.parse(reply.text, obs)
        except AnswerError as exc:
            action = invalid(str(exc))
        reasoning = self.reasoning(reply.text)
        if action.kind == "done" and action.reasoning and action.reasoning.startswith(INFEASIBLE):
            self.gave_up = action.reasoning[len(INFEASIBLE) :] or "the model found the task infeasible"
            reasoning = action.reasoning
        tokens_in = reply.tokens_in + sum(r.tokens_in for r in pre)
        tokens_out = reply.tokens_out + sum(r.tokens_out for r in pre)
        action = replace(action, reasoning=reasoning, tokens_in=tokens_in, tokens_out=tokens_out)
        self.history.append(Turn(len(self.history) + 1, self.action_text(reply.text), self.summary_of(reply.text)))
        self.overhead_s.append((built - t0) - sum(r.seconds for r in pre) + (time.perf_counter() - t1))
        self.overhead_cpu_s.append((c_built - c0) - sum(r.cpu_s for r in pre) + (time.thread_time() - c1))
        return action

    def ask(self, messages: list[dict[str, Any]]) -> Reply:
        """The step's model call: chat completions; an agent of another API sends its own request."""
        assert self.client is not None
        return self.client.chat(messages)

    def before(self, obs: Observation) -> list[Asked]:
        """Model calls a step makes before choosing its action (M3A's and T3A's step summaries)."""
        return []

    def summary_of(self, text: str) -> str:
        return self.reasoning(text)

    def _note_result(self, obs: Observation) -> None:
        """The harness's verdict on the previous action (invalid, and why; an API call's output)
        goes into the history."""
        if self.history and obs.last_error and self.history[-1].error is None:
            self.history[-1].error = obs.last_error
        if self.history and obs.last_output and not self.history[-1].output:
            self.history[-1].output = " ".join(obs.last_output.split())[:200]

    def give_up(self, reason: str) -> Action:
        return Done(INFEASIBLE + reason)

    def episode_usage(self) -> dict[str, Any]:
        """For the episode record: the model's exact usage, retries, cache hits, and a give-up."""
        stats = self.client.take_stats() if self.client is not None else None
        out: dict[str, Any] = {"gave_up": self.gave_up is not None, "give_up_reason": self.gave_up}
        if stats is not None:
            out.update(stats.as_record())
            out.update(tokens_in=stats.tokens_in, tokens_out=stats.tokens_out, cost_usd=stats.cost_usd)
        return out


@dataclass
class Asked:
    """A model call made outside the action choice, its tokens and its time."""

    reply: Reply
    seconds: float  # waiting for the model
    cpu_s: float = 0.0  # this thread's CPU time meanwhile (an in-process model's own work)

    @property
    def tokens_in(self) -> int:
        return self.reply.tokens_in

    @property
    def tokens_out(self) -> int:
        return self.reply.tokens_out


def history_lines(history: list[Turn], limit: int = 20) -> str:
    """`1. tap(5): opened the menu` lines, the last `limit` of them; 'none yet' before the first."""
    if not history:
        return "None yet: this is the first step."
    lines = []
    for t in history[-limit:]:
        line = f"{t.number}. {t.action}: {t.summary}"
        if t.error:
            line += f" [rejected: {t.error}]"
        if t.output:
            line += f" [output: {t.output}]"
        lines.append(" ".join(line.split()))
    return "\n".join(lines)
