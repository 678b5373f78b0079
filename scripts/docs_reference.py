"""The docs' reference pages, generated from the code so that they cannot drift from it.

A reference page holds markers such as `<!-- reference:options -->`; `mkdocs build` runs this
file as a hook (mkdocs.yml: `hooks:`) and replaces each marker with what the code says: the
option table as pytest registers it, the fixtures' and hooks' docstrings, the results record's
keys. `python scripts/docs_reference.py NAME` prints one section, `--list` the flags.
"""

from __future__ import annotations

import ast
import inspect
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "pytest_mobile_agent"
MARKER = re.compile(r"<!-- reference:([a-z_-]+) -->")


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _doc(obj: Any) -> str:
    doc = inspect.cleandoc(obj.__doc__ or "")
    name = getattr(obj, "__name__", "")
    return "" if name and doc.startswith(f"{name}(") else doc  # a dataclass's generated one


def _signature(obj: Any) -> str:
    sig = str(inspect.signature(obj)).replace("'", "")
    return sig.replace("(self, ", "(").replace("(self)", "()")


# -- options ------------------------------------------------------------------------------------
def option_rows() -> list[tuple[str, str, str, str]]:
    """(flag, ini name, type, help) for every option the plugin registers with pytest."""
    from _pytest.config.argparsing import Parser

    from pytest_mobile_agent import plugin

    parser = Parser(_ispytest=True)
    plugin.pytest_addoption(parser)
    rows = []
    for group in parser._groups:
        for option in group.options:
            attrs = option.attrs()
            dest = attrs.get("dest", "")
            kind = "flag" if attrs.get("action") == "store_true" else getattr(attrs.get("type"), "__name__", "str")
            ini = dest if dest in parser._inidict else ""
            rows.append((", ".join(option.names()), ini, kind, attrs.get("help", "")))
    return rows


def ini_only_rows() -> list[tuple[str, str]]:
    from _pytest.config.argparsing import Parser

    from pytest_mobile_agent import plugin

    parser = Parser(_ispytest=True)
    plugin.pytest_addoption(parser)
    dests = {option.attrs().get("dest") for group in parser._groups for option in group.options}
    return [(name, spec[0]) for name, spec in parser._inidict.items() if name not in dests]


def options() -> str:
    lines = [
        "| option | ini value | type | what it does |",
        "|---|---|---|---|",
    ]
    for flag, ini, kind, help_ in option_rows():
        lines.append(f"| `{flag}` | {f'`{ini}`' if ini else ''} | {kind} | {_cell(help_)} |")
    extra = ini_only_rows()
    if extra:
        lines += ["", "Ini values without a command-line twin:", "", "| ini value | what it does |", "|---|---|"]
        lines += [f"| `{name}` | {_cell(help_)} |" for name, help_ in extra]
    return "\n".join(lines)


def commands() -> str:
    """The plugin's command-line tools, each with its own --help, as it prints it."""
    out = []
    for command, what in (
        ("pytest_mobile_agent doctor", "Check every device a run would use, and say what to do"),
        ("pytest_mobile_agent verify", "Replay a --mobile-bundle archive and say per task whether it is reproduced"),
        ("pytest_mobile_agent.reporting", "The HTML report from Allure results"),
        ("pytest_mobile_agent.reporting.merge", "Merge shards' results into one"),
        ("pytest_mobile_agent.reporting.compare", "Compare two runs task by task"),
        ("pytest_mobile_agent.virtual", "Start one virtual device"),
    ):
        done = subprocess.run(
            [sys.executable, "-m", *command.split(), "--help"], capture_output=True, text=True, cwd=ROOT, check=True
        )
        out += [f"### `python -m {command}`", "", what + ":", "", "```text", done.stdout.rstrip(), "```", ""]
    return "\n".join(out)


# -- code read as source ------------------------------------------------------------------------
def _functions(path: Path) -> list[ast.FunctionDef]:
    return [n for n in ast.parse(path.read_text()).body if isinstance(n, ast.FunctionDef)]


def _decorated_with(fn: ast.FunctionDef, word: str) -> ast.expr | None:
    for dec in fn.decorator_list:
        if word in ast.unparse(dec):
            return dec
    return None


def fixtures() -> str:
    from pytest_mobile_agent import plugin

    exported = {name for name in dir(plugin)}
    lines = ["| fixture | scope | what it gives |", "|---|---|---|"]
    sources = [PACKAGE / "fixtures.py", PACKAGE / "formats" / "mobileagentbench.py"]
    for path in sources:
        for fn in _functions(path):
            dec = _decorated_with(fn, "fixture")
            if dec is None or fn.name not in exported or fn.name.startswith("_"):
                continue
            scope = "function"
            if isinstance(dec, ast.Call):
                for kw in dec.keywords:
                    if kw.arg == "scope" and isinstance(kw.value, ast.Constant):
                        scope = str(kw.value.value)
            doc = ast.get_docstring(fn) or ""
            lines.append(f"| `{fn.name}` | {scope} | {_cell(doc)} |")
    return "\n".join(lines)


def hooks() -> str:
    from pytest_mobile_agent import hookspecs

    out = [_doc(hookspecs), ""]
    for fn in _functions(PACKAGE / "hookspecs.py"):
        spec = getattr(hookspecs, fn.name)
        kind = "firstresult" if "firstresult=True" in ast.unparse(fn.decorator_list[0]) else "broadcast"
        out += [f"### `{fn.name}`", "", f"*{kind}*", "", "```python", f"def {fn.name}{_signature(spec)}", "```"]
        out += ["", _doc(spec), ""]
    return "\n".join(out)


def task_parameters() -> str:
    from pytest_mobile_agent import tasks

    out = ["```python", f"@task{_signature(tasks.task)}", "```", "", _doc(tasks), "", _doc(tasks.task)]
    return "\n".join(out)


def actions() -> str:
    from pytest_mobile_agent import actions as module

    out = [_doc(module), "", "| action | JSON `action` | what it does |", "|---|---|---|"]
    for fn in _functions(PACKAGE / "actions.py"):
        if not fn.name[:1].isupper():
            continue
        obj = getattr(module, fn.name)
        kind = re.sub(r"(?<!^)(?=[A-Z])", "_", fn.name).lower()
        out.append(f"| `{fn.name}{_cell(_signature(obj))}` | `{kind}` | {_cell(_doc(obj))} |")
    out += ["", "Keys for `Key(...)`: " + ", ".join(f"`{k}`" for k in module.KEYS) + "."]
    out += ["", "Selector fields: " + ", ".join(f"`{k}`" for k in module.SELECTOR_FIELDS) + "."]
    out += ["", "Commands `Api(...)` may run: " + ", ".join(f"`{k}`" for k in module.API_ALLOWLIST) + "."]
    return "\n".join(out)


def _api(cls: type) -> list[str]:
    out = [f"### `{cls.__name__}`", "", _doc(cls), "", "| member | type or what it does |", "|---|---|"]
    fields = getattr(cls, "__dataclass_fields__", {})
    for name in fields:
        if not name.startswith("_"):
            kind = fields[name].type
            out.append(f"| `{name}` | `{_cell(kind if isinstance(kind, str) else kind.__name__)}` |")
    for name, member in vars(cls).items():
        if name.startswith("_") or name in fields:
            continue
        if isinstance(member, property):
            out.append(f"| `{name}` | {_cell(_doc(member.fget) or 'property')} |")
        elif callable(member) or isinstance(member, classmethod | staticmethod):
            fn = member.__func__ if isinstance(member, classmethod | staticmethod) else member
            try:
                sig = _signature(fn)
            except (TypeError, ValueError):
                sig = "(...)"
            out.append(f"| `{name}{_cell(sig)}` | {_cell(_doc(fn))} |")
    return out + [""]


def observation() -> str:
    import pytest_mobile_agent as pma

    out: list[str] = []
    for name in ("Observation", "TaskInfo", "StepRecord", "UiTree", "Node"):
        out += _api(getattr(pma, name))
    return "\n".join(out)


# What each key of a results line means. A key the code writes and this table lacks fails the build.
RECORD_FIELDS = {
    "type": '"episode" for an episode line; the last line is the "aggregate"',
    "nodeid": "the pytest node id",
    "task": "the task's name (its `name` parameter, else the function's)",
    "variation": "which drawn variation of the task ran (1..N, `--mobile-variations=N`); null: the task as declared",
    "repeat": "which of the task's runs under `--mobile-repeat=K` this was (1..K); null: not repeated",
    "params": "a drawn variation's parameters (values JSON cannot hold by their repr); null for a declared task",
    "prompt": "the instruction the agent was given",
    "apps": "the packages the task uses",
    "app": 'the first app\'s marker (calculator, notes, ...), "home" for a task that names none',
    "difficulty": "easy, medium or hard",
    "agent": "the agent's name",
    "model": "the agent's model, when it says",
    "serial": "the device it ran on",
    "success": "the verdict: the body held on the final state (and no undeclared change)",
    "success_step": "the first step at which the body held",
    "steps": "steps taken",
    "golden_steps": "the task's minimum steps",
    "budget": "the step budget (step factor x golden steps, or the task's max_steps)",
    "invalid_steps": "actions that could not be carried out",
    "termination": (
        "completed, max_steps, error, infrastructure, task_error or interrupted "
        "(Ctrl-C cut it short; counted neither way)"
    ),
    "error": "the error that ended the episode, if one did",
    "traceback": "the agent's own traceback when it raised",
    "failure_message": "the assertion message of the final check",
    "se": "steps / golden steps, on a success",
    "premature": "said done but failed (MobileAgentBench's early stop)",
    "overdue": "succeeded but ran into the budget (MobileAgentBench's late stop)",
    "infrastructure": "an infrastructure error: not counted for or against the agent",
    "retried": "this attempt was run again on another device",
    "tokens_in": "input tokens (the agent's own count, else estimated)",
    "tokens_out": "output tokens (the agent's own count, else estimated)",
    "tokens_estimated": "the tokens are MobileAgentBench's estimate, not the model's count",
    "cost_usd": "cost from the price table, when the model has a price",
    "latency_s": "mean seconds per step",
    "agent_s": "seconds the agent took, all steps",
    "device_s": "seconds the device took, all steps",
    "harness_s": "seconds the harness took, all steps",
    "wall_s": "the episode's wall time",
    "reset_s": "the reset's wall time",
    "time_per_step_s": "mean seconds per step",
    "cost_per_step_usd": "cost / steps",
    "body_success": "the body's verdict, beside the judges'",
    "side_effects": 'the durable changes nobody declared ("AREA KIND KEY" each); `null`: not measured',
    "judges": "each judge's verdict, reason, tokens and cost",
    "fingerprint": "what decided the outcome: plugin version and commit, the task's suite, source hash and "
    "locale, the device (kind, Android version, display, font scale, night mode) and its apps' versions, "
    "the agent (name, version, prompts' hash, observation mode), the model and its sampling parameters, the "
    "seed, the options that change outcomes; never a key (see [the fingerprint](../how-to/resume.md#the-fingerprint))",
    "fingerprint_id": "the first 16 hex digits of the sha256 of the fingerprint's canonical JSON (sorted keys): "
    "equal ids, equal conditions; `--mobile-resume` skips a task whose id is in the file",
    "extra": "what formats, judges and hooks add (e.g. `report_case`, `spa_bench`, `mobile_bench`)",
}


def record_keys() -> list[str]:
    for fn in _functions(PACKAGE / "metrics.py"):
        if fn.name == "episode_record":
            for node in ast.walk(fn):
                if isinstance(node, ast.Return) and isinstance(node.value, ast.Dict):
                    return [k.value for k in node.value.keys if isinstance(k, ast.Constant)]
    raise LookupError("metrics.episode_record returns no dict literal")


def results() -> str:
    keys = record_keys()
    missing = [k for k in keys if k not in RECORD_FIELDS]
    if missing:
        raise LookupError(f"results record keys with no description in {__file__}: {missing}")
    lines = ["| key | what it holds |", "|---|---|"]
    lines += [f"| `{k}` | {_cell(RECORD_FIELDS[k])} |" for k in keys]
    return "\n".join(lines)


def metrics() -> str:
    from pytest_mobile_agent import metrics as module

    return "```text\n" + _doc(module) + "\n```"


def summary_table() -> str:
    from pytest_mobile_agent.reporting.terminal import COLUMNS

    lines = ["| column | aggregate key | what it is |", "|---|---|---|"]
    lines += [f"| `{title}` | `{key}` | {_cell(what)} |" for title, key, _, what in COLUMNS]
    return "\n".join(lines)


def changelog() -> str:
    text = (ROOT / "CHANGELOG.md").read_text()
    return text.split("\n", 1)[1]  # under the page's own title


SECTIONS: dict[str, Callable[[], str]] = {
    "options": options,
    "commands": commands,
    "fixtures": fixtures,
    "hooks": hooks,
    "task": task_parameters,
    "actions": actions,
    "observation": observation,
    "results": results,
    "metrics": metrics,
    "summary": summary_table,
    "changelog": changelog,
}


def render(markdown: str) -> str:
    def section(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in SECTIONS:
            raise LookupError(f"unknown reference section {name!r}: one of {', '.join(SECTIONS)}")
        return SECTIONS[name]()

    return MARKER.sub(section, markdown)


def on_config(config: Any) -> Any:
    sys.path.insert(0, str(ROOT))  # the checkout's package, whatever is installed
    return config


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    return render(markdown)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    if sys.argv[1:] == ["--list"]:
        print("\n".join(flag for row in option_rows() for flag in row[0].split(", ")))
    else:
        for name in sys.argv[1:] or list(SECTIONS):
            print(SECTIONS[name]())
