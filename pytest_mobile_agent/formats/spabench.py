"""SPA-Bench's task files, run as they are: `pytest path/to/single-app-ENG.csv` (or -CHN, or
`cross-app-ENG.csv` / -CHN with its `cross-app-split/` folder beside it).

Every row is a test item named by its `task_identifier`, carrying the row's fields. As
SPA-Bench's run.py does:
- a single-app task starts with its app opened (`am start -n adb_app/adb_home_page`, else the
  launcher activity) and tells the agent so: `This is the opened app "{task_app}". ...`
  (Chinese: `这是已打开的"{task_app_CHN}"应用程序，...`);
- a cross-app task starts from HOME with its description as it is;
- the step budget is twice the golden steps (`--mobile-step-factor`; SPA-Bench's own
  `golden_steps * 2 + 1` rounds include the round in which the agent says it is done).
It is judged by `spa`: the key components (`key_component_final`), then the MLLM judge; a
cross-app task by its human-reviewed subtasks (`cross-app-split/<task_identifier>.json`).

Cross-app files name apps by their labels ("Google Play Store", "微信"), not packages: a label
is resolved to a package through the single-app files beside it (`task_app`, `task_app_CHN` ->
`adb_app`, the task's language first), else through `APP_PACKAGES`. A label found in neither
is reported in the skip reason. A subtask naming two apps ("Amazon/Temu") is split at the
first.
"""

from __future__ import annotations

import ast
import csv
import dataclasses
import json
import re
from pathlib import Path
from typing import Any

from pytest_mobile_agent.formats.task_file import BadRow, BenchmarkFile, FileTask, TaskFileError

SINGLE_COLUMNS: tuple[str, ...] = (
    "task_identifier",
    "task_app",
    "task_language",
    "task_description",
    "task_difficulty",
    "golden_steps",
    "key_component_final",
    "adb_app",
    "adb_home_page",
    "is_cross_app",
)
CROSS_COLUMNS: tuple[str, ...] = (
    "task_identifier",
    "category",
    "task_language",
    "task_app",
    "task_description",
    "task_difficulty",
    "golden_steps",
    "is_cross_app",
)
LANGUAGES = ("ENG", "CHN")
LEVELS = {1: "easy", 2: "medium", 3: "hard"}  # SPA-Bench's levels on the plugin's difficulty markers
SPLIT_DIR = "cross-app-split"
NAME = re.compile(r"^(single|cross)-app(-.*)?\.csv$", re.IGNORECASE)
# Labels SPA-Bench's cross-app files use that no single-app row names.
APP_PACKAGES = {
    "accuweather": "com.accuweather.android",
    "bbcnews": "bbc.mobile.news.ww",
    "ebay": "com.ebay.mobile",
    "googleplaystore": "com.android.vending",
    "qq": "com.tencent.mobileqq",
    "setting": "com.android.settings",
    "triller": "co.triller.droid",
}


def is_task_file(path: Path, explicit: bool) -> bool:
    return path.suffix.lower() == ".csv" and (explicit or bool(NAME.match(path.name)))


def _key(label: str) -> str:
    return re.sub(r"[\s_\-.]+", "", label).lower()


def read_rows(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    try:
        with path.open(encoding="utf-8-sig", newline="") as f:  # SPA-Bench's CSVs may start with a BOM
            reader = csv.DictReader(f)
            header = [h.strip() for h in reader.fieldnames or []]
            reader.fieldnames = header
            rows = list(reader)
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise TaskFileError(f"cannot read it as a SPA-Bench CSV file: {exc}") from exc
    return header, rows


def _int(row: dict[str, str], column: str, low: int, high: int | None = None) -> int:
    raw = (row.get(column) or "").strip()
    try:
        value = int(raw)
    except ValueError:
        raise TaskFileError(f"{column} must be a whole number, not {raw!r}") from None
    if value < low or (high is not None and value > high):
        raise TaskFileError(f"{column} must be {low}..{high}, not {value}" if high else f"{column} must be >= {low}")
    return value


def _required(row: dict[str, str], column: str) -> str:
    value = (row.get(column) or "").strip()
    if not value:
        raise TaskFileError(f"{column} is empty")
    return value


def _string_list(row: dict[str, str], column: str) -> list[str]:
    raw = (row.get(column) or "").strip()
    try:
        value = ast.literal_eval(raw)
    except (ValueError, SyntaxError):
        raise TaskFileError(f"{column} must be a list like ['a', 'b'], not {raw!r}") from None
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise TaskFileError(f"{column} must be a list of texts, not {raw!r}")
    return list(value)


class AppNames:
    """App labels -> packages, from the single-app files in a folder (per language)."""

    def __init__(self, folder: Path) -> None:
        self.by_language: dict[str, dict[str, str]] = {}
        for path in sorted(folder.glob("*.csv")):
            if not path.name.lower().startswith("single-app"):
                continue
            try:
                header, rows = read_rows(path)
            except TaskFileError:
                continue  # that file fails on its own when it is run
            for row in rows:
                package = (row.get("adb_app") or "").strip()
                names = self.by_language.setdefault((row.get("task_language") or "").strip(), {})
                for column in ("task_app", "task_app_CHN"):
                    if package and (row.get(column) or "").strip():
                        names.setdefault(_key(row[column]), package)

    def package(self, label: str, language: str) -> str | None:
        first = label.split("/")[0]  # "Amazon/Temu": either app; split at the first
        key = _key(first)
        for lang in (language, *sorted(set(self.by_language) - {language})):
            if key in self.by_language.get(lang, {}):
                return self.by_language[lang][key]
        return APP_PACKAGES.get(key)


class SpaBenchFile(BenchmarkFile):
    def read(self) -> list[FileTask | BadRow]:
        header, rows = read_rows(self.path)
        if "adb_app" in header:
            cross, needed = False, SINGLE_COLUMNS
        elif "category" in header:
            cross, needed = True, CROSS_COLUMNS
        else:
            raise TaskFileError(
                "not a SPA-Bench task file: the header has neither adb_app (single-app) nor category (cross-app); "
                f"it is {','.join(header) or '(empty)'}"
            )
        missing = [c for c in needed if c not in header]
        if missing:
            kind = "cross-app" if cross else "single-app"
            raise TaskFileError(
                f"the {kind} header lacks {', '.join(missing)} (SPA-Bench's columns: {','.join(needed)})"
            )
        names = AppNames(self.path.parent) if cross else None
        out: list[FileTask | BadRow] = []
        for number, row in enumerate(rows, start=2):  # line 1 is the header
            name = (row.get("task_identifier") or "").strip() or f"line{number}"
            try:
                task = self._cross(row, names) if names is not None else self._single(row)
                out.append(dataclasses.replace(task, line=number))
            except TaskFileError as exc:
                out.append(BadRow(name, f"line {number} ({name}): {exc}", line=number))
        return out

    def _common(self, row: dict[str, str]) -> tuple[str, str, str, int, int]:
        name = _required(row, "task_identifier")
        language = _required(row, "task_language")
        if language not in LANGUAGES:
            raise TaskFileError(f"task_language must be ENG or CHN, not {language!r}")
        return (
            name,
            language,
            _required(row, "task_description"),
            _int(row, "task_difficulty", 1, 3),
            _int(row, "golden_steps", 1),
        )

    def _single(self, row: dict[str, str]) -> FileTask:
        name, language, description, level, golden = self._common(row)
        package = _required(row, "adb_app")
        keys = _string_list(row, "key_component_final")
        if language == "CHN":
            prompt = f'这是已打开的"{_required(row, "task_app_CHN")}"应用程序，{description}'
        else:
            prompt = f'This is the opened app "{_required(row, "task_app")}". {description}'
        return FileTask(
            name=name,
            benchmark="SPA-Bench",
            record_key="spa_bench",
            prompt=prompt,
            apps=(package,),
            golden_steps=golden,
            difficulty=LEVELS[level],
            judge="spa",
            fields=dict(row),
            judge_inputs={"key_components": keys} if keys else {},
            markers=("spa_bench", "single_app", language.lower()),
            start=(package, (row.get("adb_home_page") or "").strip()),
        )

    def _cross(self, row: dict[str, str], names: AppNames) -> FileTask | BadRow:
        name, language, description, level, golden = self._common(row)
        labels = _string_list(row, "task_app")
        split_path = self.path.parent / SPLIT_DIR / f"{name}.json"
        try:
            split = json.loads(split_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise TaskFileError(
                f"no subtask split {SPLIT_DIR}/{name}.json beside the file (SPA-Bench's cross-app judge needs it)"
            ) from None
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise TaskFileError(f"{SPLIT_DIR}/{name}.json is not valid JSON: {exc}") from None
        subtasks = _subtasks(split, f"{SPLIT_DIR}/{name}.json")
        unknown = sorted(
            {label for label in [*labels, *(s["app"] for s in subtasks)] if names.package(label, language) is None}
        )
        if unknown:
            return BadRow(
                name,
                f"SPA-Bench task {name}: no package known for app {', '.join(map(repr, unknown))} "
                "(SPA-Bench names it by its label only)",
                skip=True,
            )
        apps = tuple(dict.fromkeys(names.package(label, language) or "" for label in labels))
        resolved = [{**s, "app_label": s["app"], "app": names.package(s["app"], language)} for s in subtasks]
        return FileTask(
            name=name,
            benchmark="SPA-Bench",
            record_key="spa_bench",
            prompt=description,
            apps=apps,
            golden_steps=golden,
            difficulty=LEVELS[level],
            judge="spa",
            fields={**row, "cross_app_split": split},
            judge_inputs={"subtasks": resolved},
            markers=("spa_bench", "cross_app", language.lower()),
        )


def _subtasks(split: Any, where: str) -> list[dict[str, Any]]:
    if not isinstance(split, dict):
        raise TaskFileError(f"{where} must hold an object with subtask_1, subtask_2, ...")
    keys = sorted((k for k in split if re.fullmatch(r"subtask_\d+", k)), key=lambda k: int(k.split("_")[1]))
    if not keys:
        raise TaskFileError(f"{where} has no subtask_1")
    out = []
    for key in keys:
        sub = split[key]
        if not isinstance(sub, dict) or not isinstance(sub.get("app"), str) or not isinstance(sub.get("task"), str):
            raise TaskFileError(f"{where}: {key} needs an app and a task (and history, memory)")
        out.append(
            {
                "app": sub["app"],
                "task": sub["task"],
                "history": bool(sub.get("history")),
                "memory": sub.get("memory") if isinstance(sub.get("memory"), str) else "None",
            }
        )
    return out
