"""Mobile-Bench's CheckPoints (Deng et al., ACL 2024, §3.3 and App. B): the process, not the
final state, scored over the action history.

A task declares `checkpoints={"package": ..., "key_phrases": [...], "api": [...]}` (the
released data's `text`, `activity` and `resource-id` keys are read too). Each entry is
- a string: one CheckPoint, passed when it occurs in a successful action; a string with `|`
  ("air ticket|flight") passes on any of its alternatives (a disjunctive check, Eq. 4);
- a list starting with "|" or "&" (the released files' form): one disjunctive or conjunctive
  (Eq. 3) CheckPoint over the rest;
- a plain list (`[ ]`, the sequential check, Eq. 2): each element counts one, and the score is
  |SC ∩ AH| / |SC|.
Only successfully executed actions count (App. B.4). Level 1 is the share of packages used;
level 2 the share of all CheckPoints (package, key phrases, API) passed: Σ passed / Σ total,
so the paper's example (App. B.4: the app opened by API, "air ticket", "Beijing" and
"Shanghai" chosen, the date not entered) scores l1 = 1/1 and l2 = 5/6.

The released scorer (XiaoMi/MobileBench agent_for_ui/main_for_ui.py) differs from the paper:
1. `&`: it requires every element in *every* action; Eq. 3 needs each element in *some*
   action. `semantics="released"` (`--mobile-checkpoints=released`) scores `&` its way.
2. A `package` given as a plain string is iterated character by character in its l1
   (a bug: "com.x" scores the share of its letters found); both modes here treat the string as
   one package.
3. Neither the paper's Eq. 2 nor the code enforces order inside `[ ]`; neither does this.
4. The paper combines the three kinds by "a weighted sum" without weights; the code (and this
   module) sums passed over total, i.e. weights by count.
The verdict passes when l2 reaches `threshold` (1.0: every CheckPoint passed).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pytest_mobile_agent.judges.base import Trajectory, Verdict

PAPER, RELEASED = "paper", "released"
KINDS = ("package", "activity", "resource-id", "key_phrases", "text", "api")


@dataclass(frozen=True)
class Score:
    passed: int
    total: int
    missed: tuple[str, ...] = ()

    def __add__(self, other: Score) -> Score:
        return Score(self.passed + other.passed, self.total + other.total, self.missed + other.missed)

    @property
    def rate(self) -> float | None:
        return self.passed / self.total if self.total else None


def _occurs(phrase: str, history: Sequence[str]) -> bool:
    needle = phrase.lower()
    return any(needle in entry.lower() for entry in history)


def _one(phrase: str, history: Sequence[str]) -> bool:
    """A single CheckPoint string; `a|b` is the paper's disjunctive spelling."""
    return any(_occurs(alt.strip(), history) for alt in phrase.split("|") if alt.strip())


def score_entry(entry: str | Sequence[Any], history: Sequence[str], semantics: str = PAPER) -> Score:
    """The score of one declared entry (a string, an operator group or a sequential list)."""
    if isinstance(entry, str):
        ok = _one(entry, history)
        return Score(int(ok), 1, () if ok else (entry,))
    items = list(entry)
    if not items:
        return Score(0, 0)
    if items[0] in ("|", "&"):
        op, rest = items[0], [str(x) for x in items[1:]]
        if op == "|":
            ok = any(_one(x, history) for x in rest)  # Eq. 4
        elif semantics == RELEASED:
            ok = bool(history) and all(x.lower() in h.lower() for x in rest for h in history)
        else:
            ok = all(_one(x, history) for x in rest)  # Eq. 3
        label = f" {op} ".join(rest)
        return Score(int(ok), 1, () if ok else (label,))
    total = Score(0, 0)
    for item in items:  # the sequential check, Eq. 2: one count per element passed
        total = total + score_entry(item, history, semantics)
    return total


def _entries(value: Any) -> list[Any]:
    return [] if value is None else [value]


def score(checkpoints: dict[str, Any], history: Sequence[str], semantics: str = PAPER) -> tuple[Score, Score]:
    """(level 1, level 2) for declared CheckPoints over an action history."""
    unknown = set(checkpoints) - set(KINDS)
    if unknown:
        raise ValueError(f"unknown CheckPoint kind(s) {sorted(unknown)}; expected some of {', '.join(KINDS)}")
    if semantics not in (PAPER, RELEASED):
        raise ValueError(f"CheckPoint semantics must be {PAPER!r} or {RELEASED!r}, not {semantics!r}")
    l1 = Score(0, 0)
    for entry in _entries(checkpoints.get("package")):
        l1 = l1 + score_entry(entry, history, semantics)
    l2 = l1
    for kind in KINDS[1:]:
        for entry in _entries(checkpoints.get(kind)):
            l2 = l2 + score_entry(entry, history, semantics)
    return l1, l2


class CheckpointsJudge:
    name = "checkpoints"
    needs_screenshots = False

    def __init__(self, semantics: str = PAPER, threshold: float = 1.0) -> None:
        if semantics not in (PAPER, RELEASED):
            raise ValueError(f"CheckPoint semantics must be {PAPER!r} or {RELEASED!r}, not {semantics!r}")
        self.semantics, self.threshold = semantics, threshold

    def judge(self, trajectory: Trajectory) -> Verdict:
        declared = trajectory.inputs.get("checkpoints")
        if not declared:
            return Verdict(None, "the task declares no CheckPoints")
        l1, l2 = score(declared, trajectory.successful_history(), self.semantics)
        details = {
            "l1": l1.rate,
            "l2": l2.rate,
            "l1_counts": [l1.passed, l1.total],
            "l2_counts": [l2.passed, l2.total],
            "semantics": self.semantics,
        }
        passed = l2.rate is not None and l2.rate >= self.threshold
        reason = f"CheckPoints l1 {l1.passed}/{l1.total}, l2 {l2.passed}/{l2.total}"
        if l2.missed:
            reason += "; not in the successful actions: " + ", ".join(repr(m) for m in l2.missed[:5])
        return Verdict(passed, reason, details=details)
