"""Judges measured against the tasks' own bodies.

Every episode whose task has a body and where judges ran carries both verdicts in its record:
`body_success` and `judges: {name: {passed, reason, tokens_in, tokens_out, cost_usd, details}}`.
Success is the positive class: precision = TP / (TP + FP), recall = TP / (TP + FN),
F1 = 2PR / (P + R), accuracy = (TP + TN) / decided. A judge that abstained (passed None: no
inputs for the task, an unusable answer) is counted apart and left out of the four figures.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class Confusion:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0
    abstained: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float | None = None

    @property
    def decided(self) -> int:
        return self.tp + self.fp + self.fn + self.tn

    @property
    def precision(self) -> float | None:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self) -> float | None:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None

    @property
    def f1(self) -> float | None:
        p, r = self.precision, self.recall
        if p is None or r is None:
            return None
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def accuracy(self) -> float | None:
        return (self.tp + self.tn) / self.decided if self.decided else None

    def add(self, body: bool, verdict: dict[str, Any]) -> None:
        passed = verdict.get("passed")
        if passed is None:
            self.abstained += 1
        elif passed and body:
            self.tp += 1
        elif passed:
            self.fp += 1
        elif body:
            self.fn += 1
        else:
            self.tn += 1
        self.tokens_in += int(verdict.get("tokens_in") or 0)
        self.tokens_out += int(verdict.get("tokens_out") or 0)
        if verdict.get("cost_usd") is not None:
            self.cost_usd = (self.cost_usd or 0.0) + float(verdict["cost_usd"])

    def as_dict(self) -> dict[str, Any]:
        return {
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "tn": self.tn,
            "abstained": self.abstained,
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
            "accuracy": self.accuracy,
            "tokens_in": self.tokens_in,
            "tokens_out": self.tokens_out,
            "cost_usd": self.cost_usd,
        }


def calibrate(records: list[dict[str, Any]]) -> dict[str, Confusion]:
    """Per judge, its confusion against the body over the records that have both verdicts."""
    table: dict[str, Confusion] = {}
    for r in records:
        if r.get("infrastructure") or r.get("body_success") is None:
            continue
        for name, verdict in (r.get("judges") or {}).items():
            table.setdefault(name, Confusion()).add(bool(r["body_success"]), verdict)
    return table


def disagrees(record: dict[str, Any]) -> list[str]:
    """The judges whose verdict differs from the body's (abstentions do not disagree)."""
    body = record.get("body_success")
    if body is None:
        return []
    return [n for n, v in (record.get("judges") or {}).items() if v.get("passed") is not None and v["passed"] != body]


def _f(value: float | None, fmt: str = "{:.3f}") -> str:
    return "-" if value is None else fmt.format(value)


def table(confusions: dict[str, Confusion]) -> list[str]:
    header = ["judge", "N", "TP", "FP", "FN", "TN", "abst", "precision", "recall", "F1", "accuracy", "tokens", "USD"]
    rows = [
        [
            name,
            str(c.decided),
            str(c.tp),
            str(c.fp),
            str(c.fn),
            str(c.tn),
            str(c.abstained),
            _f(c.precision),
            _f(c.recall),
            _f(c.f1),
            _f(c.accuracy),
            str(c.tokens_in + c.tokens_out),
            _f(c.cost_usd, "{:.4f}"),
        ]
        for name, c in sorted(confusions.items())
    ]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(r: list[str]) -> str:
        return "  ".join(c.ljust(widths[0]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(r))

    return [line(header), line(["-" * w for w in widths]), *(line(r) for r in rows)]
