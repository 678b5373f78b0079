"""AutoEval (Sun, Hua, Xia, arXiv 2503.02403): substates generated from the task text alone,
judged screen by screen.

- State Decomposer (§3.3): the model turns the task description into a substate tree (ssr.py);
  once per task text, kept for the session.
- Judge rounds (§3.5, Algorithm 1): for each screenshot, deduplicated, in order: the Capturer
  describes the screen, the Reasoner judges each pending substate against it (JSON: "true" or
  "uncertain" per substate, plus critical info for the memory), the Checker enforces the rules
  (ssr.Checker), retrying a round whose answer breaks them and skipping it after `retries`.
  A Success is remembered; the verdict passes when every substate succeeded (the task
  completes, TCR); SCR, the share of substates completed, is in the details.
- Capturer: `vlm` (the paper's: a vision model describes the screenshot; `autoeval:vlm`) or
  `hierarchy` (the default: a structured description built from the UI hierarchy the device
  dumped: app, then every element top to bottom with its type, text and state; exact, and no
  model call; not what the paper measured).
- Decomposer quality (the paper's Table 1) against a task's reference substates
  (`@task(substates=[...])`): cover, redundant, optional and incorrect rates. The paper had
  people match substates; here a generated substate matches a reference one when their content
  words overlap by at least half (Jaccard >= 0.5): an approximation, printed as such.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from pytest_mobile_agent.device.ui_tree import UiTree
from pytest_mobile_agent.judges import prompts
from pytest_mobile_agent.judges.base import Trajectory, Verdict
from pytest_mobile_agent.judges.mllm import Usage
from pytest_mobile_agent.judges.ssr import UNIT, Checker, Substate, parse

if TYPE_CHECKING:
    from PIL import Image

CAPTURERS = ("hierarchy", "vlm")
_WORD = re.compile(r"[\w']+")
_STOP = {
    "the",
    "a",
    "an",
    "is",
    "are",
    "of",
    "to",
    "in",
    "on",
    "and",
    "app",
    "page",
    "visible",
    "be",
    "with",
    "for",
    "as",
    "set",
    "shows",
    "shown",
    "screen",
    "'s",
    "main",
}


def describe_hierarchy(xml: str | None) -> str:
    """The Capturer from the hierarchy: the app, then each element with text, desc or a state."""
    if not xml:
        return "(no screen)"
    tree = UiTree(xml)
    lines = [f"App package: {tree.package}"]
    for n in tree.nodes():
        states = [
            s
            for s, on in (
                ("checked", n.checked),
                ("selected", n.selected),
                ("focused", n.focused),
                ("disabled", not n.enabled),
            )
            if on
        ]
        if not (n.text or n.desc or n.checkable or n.selected):
            continue
        label = n.cls.rsplit(".", 1)[-1]
        parts = [label]
        if n.text:
            parts.append(f'text "{n.text}"')
        if n.desc:
            parts.append(f'description "{n.desc}"')
        if n.checkable and not n.checked:
            states.append("unchecked")
        if states:
            parts.append("(" + ", ".join(states) + ")")
        lines.append("- " + " ".join(parts))
    return "\n".join(lines)


def parse_reasoner(text: str) -> dict[str, Any] | None:
    """The Reasoner's JSON object (fenced or not), or None."""
    start, end = (text or "").find("{"), (text or "").rfind("}")
    if start < 0 or end <= start:
        return None
    try:
        data = json.loads(text[start : end + 1])
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _STOP}


def similar(a: str, b: str) -> bool:
    wa, wb = _words(a), _words(b)
    return bool(wa and wb) and len(wa & wb) / len(wa | wb) >= 0.5


def decomposer_rates(generated: list[Substate], reference: list[str]) -> dict[str, Any]:
    """Cover rate (reference substates matched), and among the generated: redundant (a second
    match of the same reference, or the same content twice), optional (valid but matching no
    reference) and incorrect (breaking the SSR rules)."""
    refs = [r for r in (parse_reference(x) for x in reference) if r]
    matched_refs: set[int] = set()
    redundant = optional = incorrect = 0
    seen: set[str] = set()
    for node in generated:
        if node.invalid:
            incorrect += 1
            continue
        key = " ".join(sorted(_words(node.content)))
        hits = [i for i, r in enumerate(refs) if similar(node.content, r)]
        if key in seen or (hits and all(i in matched_refs for i in hits)):
            redundant += 1
        elif not hits:
            optional += 1
        seen.add(key)
        matched_refs.update(hits)
    n = len(generated)
    return {
        "reference": len(refs),
        "generated": n,
        "covered": len(matched_refs),
        "redundant": redundant,
        "optional": optional,
        "incorrect": incorrect,
    }


def parse_reference(line: str) -> str:
    """A reference substate's content: a node line or plain text."""
    nodes, _ = parse(line)
    return nodes[0].content if nodes else line.strip()


def decomposer_table(rows: list[dict[str, Any]]) -> list[str]:
    """Pooled over tasks, as the paper's Table 1 reports rates over all substates."""
    ref = sum(r["reference"] for r in rows)
    gen = sum(r["generated"] for r in rows)

    def pct(num: int, den: int) -> str:
        return f"{100 * num / den:.2f}%" if den else "-"

    total = {k: sum(r[k] for r in rows) for k in ("covered", "redundant", "optional", "incorrect")}
    return [
        f"tasks {len(rows)}, reference substates {ref}, generated {gen} (matching by word overlap, an approximation)",
        f"cover {pct(total['covered'], ref)}  redundant {pct(total['redundant'], gen)}  "
        f"optional {pct(total['optional'], gen)}  incorrect {pct(total['incorrect'], gen)}",
    ]


class AutoEvalJudge:
    name = "autoeval"

    def __init__(self, client: Any, capturer: str = "hierarchy", retries: int = 2) -> None:
        if capturer not in CAPTURERS:
            raise ValueError(f"the Capturer must be one of {', '.join(CAPTURERS)}, not {capturer!r}")
        self.client, self.capturer, self.retries = client, capturer, retries
        self.needs_screenshots = capturer == "vlm"
        self._decomposed: dict[str, tuple[list[Substate], int]] = {}

    def decompose(self, task: str, usage: Usage, additional_info: str = "") -> list[Substate]:
        if task not in self._decomposed:
            from pytest_mobile_agent.models import user

            prompt = prompts.DECOMPOSER.format(task=task, additional_info=additional_info)
            reply = usage.add(self.client.chat([user(prompt)]))
            self._decomposed[task] = parse(reply.text)
        return self._decomposed[task][0]

    def capture(self, trajectory: Trajectory, i: int, usage: Usage) -> str:
        if self.capturer == "hierarchy":
            return describe_hierarchy(trajectory.hierarchies[i])
        from pytest_mobile_agent.models import user

        screenshot = trajectory.screenshots[i]
        images: list[bytes | Image.Image] = [screenshot] if screenshot is not None else []
        return usage.add(self.client.chat([user(prompts.CAPTURER, images=images)])).text

    def screens(self, trajectory: Trajectory) -> list[int]:
        """Screen indexes in order, consecutive duplicates dropped (the Agent Observer's filter)."""
        source = trajectory.screenshots if self.capturer == "vlm" else trajectory.hierarchies
        out: list[int] = []
        for i, item in enumerate(source):
            if item is not None and (not out or source[out[-1]] != item):
                out.append(i)
        return out

    def judge(self, trajectory: Trajectory) -> Verdict:
        from pytest_mobile_agent.models import user

        usage = Usage()
        nodes = self.decompose(trajectory.prompt, usage)
        details: dict[str, Any] = {"substates": [n.line() for n in nodes], "capturer": self.capturer}
        reference = trajectory.inputs.get("substates")
        if reference:
            details["decomposer"] = decomposer_rates(nodes, list(reference))
        if not nodes:
            return usage.verdict(None, "the State Decomposer gave no usable substates", **details)
        checker = Checker(nodes)
        memory: list[str] = []
        rounds = skipped = 0
        for i in self.screens(trajectory):
            judged = checker.pending()
            if not any(n.id not in checker.success for n in judged):
                break
            screen = self.capture(trajectory, i, usage)
            rounds += 1
            listing = "\n".join(n.line() for n in judged)
            remembered = "; ".join(memory + [f"substate {s} reached" for s in sorted(checker.success)]) or "nothing yet"
            prompt = prompts.REASONER.format(
                task=trajectory.prompt, memory=remembered, screen=screen, substates=listing
            )
            for _attempt in range(self.retries + 1):
                data = parse_reasoner(usage.add(self.client.chat([user(prompt)])).text)
                states = data.get("states") if data else None
                problem = "the answer is not a JSON object" if data is None else checker.check(judged, states)
                if problem is None:
                    checker.apply(judged, states)  # type: ignore[arg-type]
                    if data.get("critical_info"):  # type: ignore[union-attr]
                        memory.append(str(data["critical_info"])[:300])  # type: ignore[index]
                    break
                checker.violations += 1
            else:
                skipped += 1
        details.update(
            scr=checker.scr,
            rounds=rounds,
            skipped_rounds=skipped,
            violations=checker.violations,
            success=sorted(checker.success),
            invalid=[n.id for n in nodes if n.invalid],
        )
        done = f"{len(checker.success)}/{len(nodes)} substates reached (SCR {checker.scr:.2f})"
        if checker.complete:
            return usage.verdict(True, f"all {done}", **details)
        missing = [n.content for n in nodes if n.id not in checker.success][:3]
        return usage.verdict(False, f"{done}; not reached: {missing}", **details)


__all__ = ["UNIT", "AutoEvalJudge", "decomposer_rates", "decomposer_table", "describe_hierarchy"]
