"""Mobile-Bench's task files, run as they are: `pytest path/to/s_app_s_step.json` (SAST),
`s_app_m_step.json` (SAMT), `m_app_m_step.json` (MAMT), or any JSON file of such entries
named on the command line.

Every entry (`{"id", "query", "check_point", "app" or "domain"}`) is a test item named
`<kind>_<id>` (`sast_2`), carrying the entry's fields. As Mobile-Bench runs them:
- it starts from HOME (the agent chooses the apps); the query is the prompt (a list of
  queries joined, as its main_for_ui.py joins them);
- the step limit is 10 for SAST, 20 for SAMT, 50 for MAMT (a file of another name: 50 when
  an entry names several packages, else 20);
- it is judged by `checkpoints` over the check_point keys its scorer reads (`package`,
  `activity`, `resource-id`, `text`, `api`; empty ones skipped, as its scorer skips them).
  An `api` CheckPoint is matched without its `adb shell ` prefix: the history holds the
  command as the device ran it.
- Mobile-Bench's API list (`agent_for_api/api_list.json` of its repository, or an
  `api_list.json` beside the file) is the task's API action space: the groups of the entry's
  apps plus the universal keys (通用按键) and system (系统) groups, or every group when none of
  the entry's apps has one. Agents read it as `observation.task.apis`.
The task's apps are the check_point's packages, else the packages its activities name (an
activity's class name alone names none); an entry that names none runs on whatever the device
has. An entry whose query is no text (some SAST queries are a deep link, `[{"uri": ...}]`, or
empty) fails alone with that reason: Mobile-Bench's own runner cannot run them either.
Difficulty markers: SAST easy, SAMT medium, MAMT hard.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pytest_mobile_agent.formats.task_file import BadRow, BenchmarkFile, FileTask, TaskFileError

KINDS = {"s_app_s_step.json": "SAST", "s_app_m_step.json": "SAMT", "m_app_m_step.json": "MAMT"}
STEP_LIMITS = {"SAST": 10, "SAMT": 20, "MAMT": 50}
DIFFICULTY = {"SAST": "easy", "SAMT": "medium", "MAMT": "hard"}
SCORED = ("package", "activity", "resource-id", "text", "api")  # what its scorer reads
ALWAYS_OFFERED = ("通用按键", "系统")  # universal keys, system
API_LIST = "api_list.json"


def is_task_file(path: Path, explicit: bool) -> bool:
    return path.suffix.lower() == ".json" and (explicit or path.name in KINDS)


def _load(path: Path, what: str) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError) as exc:
        raise TaskFileError(f"cannot read {what}: {exc}") from None
    except ValueError as exc:
        raise TaskFileError(f"{what} is not valid JSON: {exc}") from None


def find_api_list(task_file: Path) -> Path | None:
    for candidate in (task_file.parent / API_LIST, task_file.parent.parent / "agent_for_api" / API_LIST):
        if candidate.is_file():
            return candidate
    return None


def read_api_list(path: Path) -> dict[str, list[str]]:
    """{app name: ["adb shell ... - what it does - its parameters", ...]}."""
    data = _load(path, str(path))
    if not isinstance(data, dict):
        raise TaskFileError(f"{path} must map app names to lists of APIs")
    out: dict[str, list[str]] = {}
    for app, entries in data.items():
        if not isinstance(entries, list):
            raise TaskFileError(f"{path}: the APIs of {app!r} must be a list")
        lines = []
        for entry in entries:
            if not isinstance(entry, dict) or not isinstance(entry.get("ADB Command"), str):
                raise TaskFileError(f"{path}: an API of {app!r} has no 'ADB Command': {str(entry)[:80]}")
            parts = [entry["ADB Command"], entry.get("Function Description"), entry.get("Parameter Information")]
            lines.append(" - ".join(" ".join(str(p).split()) for p in parts if p))
        out[app] = lines
    return out


def _names(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value] if value.strip() else []
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str) and v.strip() and v not in ("|", "&")]
    return []


def packages_of(check_point: dict[str, Any]) -> tuple[str, ...]:
    """The check_point's packages, else the packages of its activities (`pkg/.Activity`)."""
    found = _names(check_point.get("package"))
    if not found:  # "pkg/.Activity" or "pkg"; a class name alone ("...TranslationChatActivity") names none
        found = [
            a.split("/")[0]
            for a in _names(check_point.get("activity"))
            if "/" in a or not a.rsplit(".", 1)[-1].endswith("Activity")
        ]
    return tuple(dict.fromkeys(p.strip() for p in found if "." in p and " " not in p.strip()))


def _without_adb_shell(value: Any) -> Any:
    if isinstance(value, str):
        return " ".join(value.split()).removeprefix("adb shell ")
    if isinstance(value, list):
        return [_without_adb_shell(v) for v in value]
    return value


def checkpoints_of(check_point: dict[str, Any]) -> dict[str, Any]:
    out = {k: check_point[k] for k in SCORED if check_point.get(k) not in (None, "", [])}
    if "api" in out:
        out["api"] = _without_adb_shell(out["api"])
    return out


class MobileBenchFile(BenchmarkFile):
    def read(self) -> list[FileTask | BadRow]:
        data = _load(self.path, "the file")
        if not isinstance(data, list):
            raise TaskFileError(
                f"not a Mobile-Bench task file: it holds a JSON {type(data).__name__}, "
                "not a list of {id, query, check_point} entries"
            )
        api_path = find_api_list(self.path)
        apis = read_api_list(api_path) if api_path else {}
        out: list[FileTask | BadRow] = []
        for n, entry in enumerate(data, start=1):
            ident = entry.get("id") if isinstance(entry, dict) else None
            kind = KINDS.get(self.path.name)
            name = f"{(kind or 'entry').lower()}_{ident}" if ident not in (None, "") else f"entry{n}"
            try:
                out.append(self._task(entry, kind, name, apis))
            except TaskFileError as exc:
                out.append(BadRow(name, f"entry {n} ({name}): {exc}"))
        return out

    def _task(self, entry: Any, kind: str | None, name: str, apis: dict[str, list[str]]) -> FileTask:
        if not isinstance(entry, dict):
            raise TaskFileError(f"an entry must be an object, not {type(entry).__name__}")
        missing = [k for k in ("id", "query", "check_point") if entry.get(k) in (None, "", [])]
        if missing:
            raise TaskFileError(f"no {', '.join(missing)}")
        query = entry["query"]
        if isinstance(query, list) and all(isinstance(q, str) for q in query):
            query = "".join(query)
        if not isinstance(query, str):
            raise TaskFileError(f"query must be a text or a list of texts, not {str(entry['query'])[:120]}")
        if not query.strip():
            raise TaskFileError("query is empty")
        check_point = entry["check_point"]
        if not isinstance(check_point, dict):
            raise TaskFileError(f"check_point must be an object, not {type(check_point).__name__}")
        packages = packages_of(check_point)
        kind = kind or ("MAMT" if len(packages) > 1 else "SAMT")
        app_names = _names(entry.get("app")) or _names(entry.get("domain"))
        return FileTask(
            name=name,
            benchmark="Mobile-Bench",
            record_key="mobile_bench",
            prompt=query,
            apps=packages,
            golden_steps=0,
            difficulty=DIFFICULTY[kind],
            judge="checkpoints",
            fields={**entry, "kind": kind},
            judge_inputs={"checkpoints": checkpoints_of(check_point)},
            markers=("mobile_bench", kind.lower()),
            max_steps=STEP_LIMITS[kind],
            apis=offered(apis, app_names),
        )


def offered(apis: dict[str, list[str]], app_names: list[str]) -> tuple[str, ...]:
    groups = [a for a in app_names if a in apis]
    chosen = [*groups, *(g for g in ALWAYS_OFFERED if g in apis and g not in groups)] if groups else list(apis)
    return tuple(line for group in chosen for line in apis[group])
