"""Near misses by family: the ways a path can look done and not be (issue 30's families).

A near miss's label starts with its family, `"field: saved repeating weekly"`, so the gates'
test ids say which way each one is almost right and `scripts/near_miss_families.py` can count
them per suite. Labels without a family are the suites' older kinds (the wrong value or item,
the goal plus a change nobody asked for, the level below).
"""

from __future__ import annotations

FAMILIES = {
    "field": "a field nobody reads",
    "multiset": "sets that hide duplicates and order",
    "allowance": "allowances wider than the change",
    "lookalike": "the right-looking screen for the wrong thing",
    "route": "the wrong app or route for a cross-app task",
}
OTHER = "other"  # a label without a family


def labelled(family: str, what: str) -> str:
    """The label of a near miss of `family`: "family: what"."""
    if family not in FAMILIES:
        raise ValueError(f"unknown near-miss family {family!r}; one of {sorted(FAMILIES)}")
    return f"{family}: {what}"


def family_of(label: str) -> str:
    """The family a label names, or OTHER."""
    head, sep, _ = label.partition(": ")
    return head if sep and head in FAMILIES else OTHER
