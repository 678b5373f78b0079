"""One benchmark at two commits, side by side: each figure of an earlier commit beside this tree's.

    python benchmarks/versus.py REF [--rounds N] -- BENCHMARK.py [ARGS...]

REF is any commit (a hash, a tag, `HEAD~3`). Its tree is checked out into a temporary git
worktree and the benchmark runs there with that tree's own code and its own copy of the script
(modules move between commits; each run imports only its own tree), then here; with
`--rounds N` the two alternate N times (REF, this, REF, this...), so a machine that grows busier
weighs on both alike. The outputs are then read line by line: where two lines say the same but
for their numbers, one line shows each number as `REF -> this` (a time of the last round of
each, and the ratio where the numbers are positive); other lines are printed as they came,
REF's first. Both runs' exit codes are printed, and the command fails when either run failed.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
# What a tree needs beside its tracked files: the listener APK, built from source and ignored.
UNTRACKED = ("pytest_mobile_agent/device/listener.apk",)


def run(tree: Path, script: str, args: list[str]) -> tuple[int, str]:
    """The benchmark's exit code and output, run from `tree` with that tree's package first on the path."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(tree), os.environ.get("PYTHONPATH")])))
    done = subprocess.run(
        [sys.executable, script, *args], cwd=tree, env=env, capture_output=True, text=True, check=False
    )
    return done.returncode, done.stdout + done.stderr


def merged(before: str, after: str) -> list[str]:
    """The two outputs line by line: lines alike but for their numbers become one."""
    out = []
    old, new = before.splitlines(), after.splitlines()
    for i in range(max(len(old), len(new))):
        a, b = (old[i] if i < len(old) else ""), (new[i] if i < len(new) else "")
        if a == b:
            out.append(a)
        elif NUMBER.sub("#", a) == NUMBER.sub("#", b):
            out.append(same_but_numbers(a, b))
        else:
            out += [f"  REF | {a}", f"  now | {b}"]
    return out


def same_but_numbers(a: str, b: str) -> str:
    """Line `a` with each of its numbers shown beside the same place's number in `b`."""
    numbers = iter(zip(NUMBER.findall(a), NUMBER.findall(b), strict=True))
    return NUMBER.sub(lambda _: pair(*next(numbers)), a)


def pair(a: str, b: str) -> str:
    if a == b:
        return a
    x, y = float(a), float(b)
    ratio = f" x{y / x:.2f}" if x > 0 and y > 0 else ""
    return f"[{a} -> {b}{ratio}]"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0], usage="%(prog)s REF [--rounds N] -- BENCHMARK.py [ARGS...]"
    )
    parser.add_argument("ref", help="the earlier commit")
    parser.add_argument("--rounds", type=int, default=1, help="alternating runs of each (default 1)")
    argv = sys.argv[1:] if argv is None else argv
    # What follows `--` is the benchmark's own command line, options included: split off here, as
    # argparse's REMAINDER after REF would also swallow `--rounds`.
    cut = argv.index("--") if "--" in argv else len(argv)
    opts = parser.parse_args(argv[:cut])
    command = argv[cut + 1 :]
    if not command:
        parser.error("name the benchmark after --, e.g. -- benchmarks/render_speed.py")
    script, args = command[0], command[1:]
    commit = subprocess.run(
        ["git", "rev-parse", "--short", opts.ref], cwd=HERE, capture_output=True, text=True, check=True
    ).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="versus-") as tmp:
        tree = Path(tmp) / commit
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(tree), commit], cwd=HERE, check=True)
        try:
            for path in UNTRACKED:
                if (HERE / path).is_file() and not (tree / path).exists():
                    (tree / path).write_bytes((HERE / path).read_bytes())
            results = []
            for _ in range(opts.rounds):
                results.append((run(tree, script, args), run(HERE, script, args)))
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=HERE, check=False)
    (code_before, before), (code_after, after) = results[-1]
    print(f"{' '.join(command)}: {commit} -> this tree ({opts.rounds} round(s); the last shown)")
    print("\n".join(merged(before, after)))
    print(f"exit codes: {commit} {code_before}, this tree {code_after}")
    return 0 if code_before == code_after == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
