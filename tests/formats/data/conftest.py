"""The look-alike task files in data/ run only when a test names them (they are tasks, not tests)."""

collect_ignore = ["data"]
