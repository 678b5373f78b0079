"""What a task may change in the SMS provider's conversations on the way to its goal, and no
more: opening one marks it read, a reply moves its date, count and snippet. Archived or left
unread is a change of its own, which these leave undeclared."""

from __future__ import annotations

from typing import Any

READ_MARKS = {"sms": {"read", "seen"}, "conversations": {"read"}}  # what opening a conversation changes
REPLY = {"date", "message_count", "snippet", "read"}  # what a reply changes in its conversation


def changed_fields(change: Any) -> set[str]:
    before, after = change.before or {}, change.after or {}
    return {k for k in set(before) | set(after) if before.get(k) != after.get(k)}


def read_marks(changes: Any) -> None:
    """Allow the read marks of opening a conversation (only those: not a message marked unread)."""
    for area, fields in READ_MARKS.items():
        for c in changes.diff.where(area, "changed"):
            if changed_fields(c) <= fields and (c.after or {}).get("read") != "0":
                changes.allow(area, c.key)


def replied(changes: Any) -> dict:
    """The one conversation a reply went into: changed by the reply alone, and left read."""
    change = changes.changed("conversations")
    extra = changed_fields(change) - REPLY
    assert not extra, f"the conversation changed beyond the reply: {sorted(extra)}"
    assert change.after.get("read") == "1", "the conversation was left unread"
    return change.after
