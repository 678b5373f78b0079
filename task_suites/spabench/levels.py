"""A single-app set as data, and the tasks it makes: level k is the first k parts.

SPA-Bench writes a set as three instructions where each extends the one before it ("Get the
search results for 'sunglasses'." -> "... Filter with 'kids'. Add one result to cart." ->
...). Here a set is its three parts; level k's prompt, golden path, checks and key components
are those of parts 1..k, so the prefix relation holds by construction. Each level gets near
misses of three kinds: its last part done wrong, the whole goal plus a change nobody asked for,
and (levels 2 and 3) the level below, done and stopped there.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pytest_mobile_agent import task
from pytest_mobile_agent.actions import Action
from pytest_mobile_agent.locales import localize
from task_suites.shared.apps import APP_NAMES
from task_suites.shared.near_misses import not_applicable

LANGUAGES = {"ENG": None, "CHN": "zh-CN"}  # SPA-Bench's task_language -> the device locale
DIFFICULTY = {1: "easy", 2: "medium", 3: "hard"}
# SPA-Bench's app names as its CSVs give them (task_app, and task_app_CHN for Chinese tasks).
APP_NAMES_CHN = {
    "com.simplemobiletools.applauncher": "简易启动器",
    "com.simplemobiletools.calculator": "简易计算器",
    "com.simplemobiletools.calendar.pro": "简易日历",
    "com.simplemobiletools.contacts.pro": "简易通讯录",
    "com.simplemobiletools.filemanager.pro": "简易文件管理器",
    "com.simplemobiletools.gallery.pro": "简易图库",
    "com.simplemobiletools.musicplayer": "简易音乐播放器",
    "com.simplemobiletools.notes.pro": "简易笔记",
    "com.simplemobiletools.smsmessenger": "简易短信",
    "com.simplemobiletools.voicerecorder": "简易录音机",
}


@dataclass(frozen=True)
class Final:
    """What a check reads: the final state of one episode, and the level it ran."""

    device: Any
    ui: Any
    changes: Any
    level: int
    events: Any = None  # the accessibility events: the way the goal was reached (shared/routes.py)


Check = Callable[[Final], None]


@dataclass(frozen=True)
class Part:
    """What one level adds to the level below it.

    `check` asserts the durable state the part asked for (declaring its changes through
    `changes`) and must keep holding after the later parts of its set; `shown` asserts what the
    screen shows when this part is the last one done. `keys` are SPA-Bench's key components of
    that final screen: texts the start screen lacks (typed values and data where they serve;
    levels.chinese_keys gives a Chinese task's). A part whose done screen shows no such text
    (an absence, names hidden, a month view that draws no titles) has none, and the
    key-component judge abstains on it. `wrong` is this part done almost right: (label, steps replacing `golden`);
    `misses` are more of them, labelled by family (task_suites/shared/near_misses.py), and
    `not_applicable` the families none of this level's can be of, with why."""

    en: str
    zh: str
    golden: Sequence[Action]
    check: Check | None = None
    shown: Check | None = None
    keys: Sequence[str] = ()
    wrong: tuple[str, Sequence[Action]] | None = None
    misses: tuple[tuple[str, Sequence[Action]], ...] = ()
    not_applicable: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class SpaSet:
    """Three parts on one app. `setup(device)` seeds the start state (adb-level means, or the
    app's own screens through `run_in_app`); `extra` is a change nobody asked for: (label,
    steps that run from the final screen of any level, or a function of the level giving them);
    `finish(final)` is a set-wide check after the parts' (fields nobody asked to change);
    `not_applicable` the near-miss families no level's can be of, with why (a part's own add to
    them)."""

    name: str
    app: str
    parts: tuple[Part, Part, Part]
    extra: tuple[str, Sequence[Action] | Callable[[int], Sequence[Action]]]
    setup: Callable[[Any], None] | None = None
    finish: Check | None = None
    grants: tuple[str, ...] = ()
    not_applicable: Mapping[str, str] = field(default_factory=dict)


# A set, or a function of the language giving it: a set whose typed values differ by language
# (a Chinese task names its contact 小明 and types it through ADB Keyboard, as SPA-Bench's
# Chinese tasks type Chinese).
SetSource = SpaSet | Callable[[str], SpaSet]


def in_language(source: SetSource, lang: str) -> SpaSet:
    return source(lang) if callable(source) else source


def golden(parts: Sequence[Part]) -> list[Action]:
    return [action for part in parts for action in part.golden]


def prompt(parts: Sequence[Part], lang: str) -> str:
    sentences = [part.en if lang == "ENG" else part.zh for part in parts]
    return (" " if lang == "ENG" else "").join(sentences)


def near_misses(spa: SpaSet, level: int) -> dict[str, list[Action]]:
    parts = spa.parts[:level]
    out: dict[str, list[Action]] = {}
    last = parts[-1]
    if last.wrong:
        label, steps = last.wrong
        out[label] = [*golden(parts[:-1]), *steps]
    for label, steps in last.misses:
        out[label] = [*golden(parts[:-1]), *steps]
    label, steps = spa.extra
    out[label] = [*golden(parts), *(steps(level) if callable(steps) else steps)]
    if level > 1:
        out[f"stopped after level {level - 1}"] = golden(parts[:-1])
    return out


def typed(path: Sequence[Action]) -> list[str]:
    return [a.text for a in path if a.kind == "type" and a.text]


def judge_inputs(app: str, keys: Sequence[str], path: Sequence[Action]) -> dict[str, Any]:
    """Key components (SPA-Bench), CheckPoints (Mobile-Bench: the package, then what the golden
    path types, in order) and reference substates (AutoEval), as the MobileAgentBench suite
    writes them."""
    checkpoints = {"package": app, "key_phrases": typed(path)}
    substates = [f'PageNode(content="{APP_NAMES[app]} app is open", parent_id=None)']
    substates += [f'UnitNode(content="{k} is shown", parent_id=0)' for k in keys]
    out: dict[str, Any] = {"checkpoints": checkpoints, "substates": substates}
    if keys:
        out["key_components"] = list(keys)
    return out


def chinese_keys(app: str, keys: Sequence[str]) -> list[str]:
    """The key components as a zh-CN screen shows them: an app text in its Chinese form, user
    content (names, numbers, typed words) as it is."""
    return [localize(k, app, LANGUAGES["CHN"]) for k in keys]


def task_name(spa: SpaSet, level: int, lang: str) -> str:
    """SPA-Bench's identifiers number an app's tasks from 0 (airbnb_0, airbnb_1, ...); the
    language is added, as its cross-app identifiers do, since both languages share the apps."""
    return f"{spa.name}_{level}_{lang}"


def make_task(source: SetSource, level: int, lang: str) -> Callable[..., Any]:
    """The test function of one level in one language."""
    spa = in_language(source, lang)
    parts = spa.parts[:level]
    path = golden(parts)
    keys = chinese_keys(spa.app, parts[-1].keys) if lang == "CHN" else list(parts[-1].keys)

    def body(device, ui, changes, events):
        final = Final(device, ui, changes, level, events)
        for part in parts:
            if part.check:
                part.check(final)
        if parts[-1].shown:
            parts[-1].shown(final)
        if spa.finish:
            spa.finish(final)

    name = task_name(spa, level, lang)
    body.__name__ = body.__qualname__ = f"test_{name}"
    body.__doc__ = f"{prompt(parts, 'ENG')} (level {level} of the set {spa.name})"
    body.spa_setup = spa.setup  # the suite's autouse fixture seeds it (conftest.py)
    decorated = task(
        prompt=prompt(parts, lang),
        app=spa.app,
        name=name,
        golden=path,
        difficulty=DIFFICULTY[level],
        grants=spa.grants,
        near_miss=near_misses(spa, level),
        locale=LANGUAGES[lang],
        **judge_inputs(spa.app, keys, path),
    )(body)
    return not_applicable(**{**spa.not_applicable, **parts[-1].not_applicable})(decorated)


def tasks_of(sets: Sequence[SetSource], languages: Sequence[str] = tuple(LANGUAGES)) -> dict[str, Callable[..., Any]]:
    """Every task of the sets by test name: three levels in each language."""
    out = {}
    for spa in sets:
        for lang in languages:
            for level in (1, 2, 3):
                fn = make_task(spa, level, lang)
                out[fn.__name__] = fn
    return out
