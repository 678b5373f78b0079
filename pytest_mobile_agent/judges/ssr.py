"""AutoEval's Structured Substate Representation (Sun, Hua, Xia, arXiv 2503.02403, §3.2, §3.5)
and its Checker, without a model.

A substate is a PageNode (a page is visible; its parent is the page it is entered from) or a
UnitNode (an element of a page is in a state; its parent is that PageNode). `parse` reads the
State Decomposer's lines (`0. PageNode(content="...", parent_id=None)`, or the Reasoner's form
with `state_id=`); a node that breaks the rules (ids not 0, 1, 2... in order, a parent that is
not an earlier PageNode, a bad line) is kept as `invalid`: it is never judged Success, as the
paper marks it uncertain forever.

The Checker's rules (§3.5): a judgment is Success ("true") or Uncertain, nothing else; a
UnitNode is Success only when its parent PageNode is judged Success in the same round (or is
the same screen's already-remembered page); a Success is remembered and never judged again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PAGE, UNIT = "PageNode", "UnitNode"
SUCCESS, UNCERTAIN = "true", "uncertain"
_NODE = re.compile(
    r"(?:(?P<num>\d+)\s*[.)]\s*)?(?P<kind>PageNode|UnitNode)\s*\(\s*(?:state_id\s*=\s*(?P<sid>\d+)\s*,\s*)?"
    r"content\s*=\s*(?P<q>[\"'])(?P<content>.*?)(?P=q)\s*,\s*parent_id\s*=\s*(?P<parent>None|\d+)\s*\)"
)


@dataclass
class Substate:
    id: int
    kind: str
    content: str
    parent: int | None
    invalid: str | None = None  # why the node breaks the decomposer's rules

    def line(self) -> str:
        parent = "None" if self.parent is None else self.parent
        return f'{self.kind}(state_id={self.id}, content="{self.content}", parent_id={parent})'


def parse(text: str) -> tuple[list[Substate], int]:
    """The nodes in `text` and the number of node-like lines that could not be read."""
    nodes: list[Substate] = []
    unreadable = 0
    for raw in text.splitlines():
        line = raw.strip().strip("`")
        if not line:
            continue
        m = _NODE.search(line)
        if m is None:
            unreadable += "Node" in line
            continue
        ident = m["sid"] or m["num"]
        nodes.append(
            Substate(
                int(ident) if ident is not None else len(nodes),
                m["kind"],
                m["content"],
                None if m["parent"] == "None" else int(m["parent"]),
            )
        )
    validate(nodes)
    return nodes, unreadable


def validate(nodes: list[Substate]) -> None:
    """Mark the nodes that break the SSR rules (in place)."""
    kinds: dict[int, str] = {}
    for expected, node in enumerate(nodes):
        if node.id != expected:
            node.invalid = f"id {node.id} where {expected} was due (ids are unique and in order)"
        elif node.parent is None and node.kind == UNIT:
            node.invalid = "a UnitNode needs its PageNode as parent"
        elif node.parent is not None and kinds.get(node.parent) != PAGE:
            node.invalid = f"parent {node.parent} is not an earlier PageNode"
        kinds.setdefault(node.id, node.kind)


class Checker:
    """The deterministic layer between the Reasoner and the memory of Successes."""

    def __init__(self, nodes: list[Substate]) -> None:
        self.nodes = {n.id: n for n in nodes}
        self.success: set[int] = set()  # sticky across rounds
        self.violations = 0

    def pending(self) -> list[Substate]:
        """What the next round judges: valid nodes not yet Success, plus the parent pages of
        pending units (a unit needs its page judged in the same round)."""
        todo = [n for n in self.nodes.values() if n.id not in self.success and n.invalid is None]
        parents = {n.parent for n in todo if n.kind == UNIT and n.parent is not None}
        extra = [self.nodes[p] for p in sorted(parents) if p in self.nodes and self.nodes[p] not in todo]
        return sorted(todo + extra, key=lambda n: n.id)

    def check(self, judged: list[Substate], states: object) -> str | None:
        """Why the Reasoner's states break the rules, or None when they are usable."""
        if not isinstance(states, list) or len(states) != len(judged):
            return f"expected {len(judged)} states, got {states!r}"[:200]
        bad = [s for s in states if str(s).strip().lower() not in (SUCCESS, UNCERTAIN)]
        if bad:
            return f"states must be 'true' or 'uncertain', not {bad[:3]}"
        verdict = {n.id: str(s).strip().lower() == SUCCESS for n, s in zip(judged, states, strict=True)}
        orphans = [
            n.id
            for n in judged
            if n.kind == UNIT and verdict[n.id] and not (n.parent is not None and verdict.get(n.parent, False))
        ]
        if orphans:
            return f"UnitNode(s) {orphans} judged Success without their PageNode in the same round"
        return None

    def apply(self, judged: list[Substate], states: list[str]) -> list[int]:
        """Record a round; returns the ids newly Success. A unit counts only with its page
        (Algorithm 2: j_unit = j_parent and j_unit)."""
        said = {n.id: str(s).strip().lower() == SUCCESS for n, s in zip(judged, states, strict=True)}
        new = [
            n.id
            for n in judged
            if said[n.id]
            and n.id not in self.success
            and n.invalid is None
            and (n.kind != UNIT or (n.parent is not None and said.get(n.parent, False)))
        ]
        self.success.update(new)
        return new

    @property
    def scr(self) -> float:
        """Substate completion rate: Successes over all substates (invalid ones count, never succeed)."""
        return len(self.success) / len(self.nodes) if self.nodes else 0.0

    @property
    def complete(self) -> bool:
        return bool(self.nodes) and len(self.success) == len(self.nodes)
