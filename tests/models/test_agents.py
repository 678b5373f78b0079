"""The built-in model agents in process, with a scripted client: prompts, tolerant parsing,
grounding, history, giving up, variants."""

from __future__ import annotations

import io
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from pytest_mobile_agent.actions import Action, InvalidAction
from pytest_mobile_agent.agents import Observation, TaskInfo
from pytest_mobile_agent.agents.baselines import M3A, T3A, AppAgent, MobileBench
from pytest_mobile_agent.agents.loader import load_agent
from pytest_mobile_agent.device.ui_tree import UiTree
from pytest_mobile_agent.models import ModelConfig, ModelStats, Reply
from pytest_mobile_agent.models.messages import text_of

PKG = "com.simplemobiletools.notes.pro"
XML = f"""<?xml version='1.0' encoding='UTF-8'?><hierarchy rotation="0">
<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="{PKG}" content-desc=""
 clickable="false" bounds="[0,0][1080,2340]">
 <node index="0" text="" resource-id="{PKG}:id/title" class="android.widget.EditText" package="{PKG}"
  content-desc="" clickable="true" focused="false" bounds="[0,100][1080,250]" />
 <node index="1" text="Save" resource-id="{PKG}:id/save" class="android.widget.Button" package="{PKG}"
  content-desc="" clickable="true" bounds="[800,2000][1000,2100]" />
 <node index="2" text="" resource-id="{PKG}:id/list" class="androidx.recyclerview.widget.RecyclerView"
  package="{PKG}" content-desc="" scrollable="true" bounds="[0,300][1080,1900]" />
 <node index="3" text="" resource-id="" class="android.widget.LinearLayout" package="{PKG}" content-desc=""
  bounds="[0,1900][1080,2000]" />
</node></hierarchy>"""


@dataclass
class ScriptedClient:
    answers: list[str]
    config: ModelConfig = field(default_factory=lambda: ModelConfig(model="scripted", image_side=512))
    asked: list[list[dict[str, Any]]] = field(default_factory=list)
    stats: ModelStats = field(default_factory=ModelStats)

    def chat(self, messages: list[dict[str, Any]], **params: Any) -> Reply:
        self.asked.append(messages)
        self.stats.calls += 1
        self.stats.tokens_in += 100
        self.stats.tokens_out += 10
        return Reply(self.answers.pop(0), 100, 10, None)

    def take_stats(self) -> ModelStats:
        stats, self.stats = self.stats, ModelStats()
        return stats


def png() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (1080, 2340), "white").save(buf, "PNG")
    return buf.getvalue()


TASK = TaskInfo("notes_title", "Write the title 'Shopping'", (PKG,), 2, 4)


def observe(step: int = 1, last_error: str | None = None) -> Observation:
    return Observation(TASK.prompt, step, XML, UiTree(XML), TASK, [], (1080, 2340), "", last_error, png())


def run(agent: Any, *answers: str, obs: Observation | None = None) -> Action:
    agent.client = ScriptedClient(list(answers))
    agent.reset(TASK)
    return agent.step(obs or observe())


def test_t3a_lists_elements_and_reads_a_chatty_answer() -> None:
    agent = T3A()
    action = run(
        agent,
        "Sure! Here is my plan.\nReason: save it\nAction: ```json\n{'action_type': 'click', "
        "'index': 1}\n```\nHope that helps.",
    )
    assert (action.kind, action.x, action.y) == ("tap", 900, 2050)
    assert (action.reasoning, action.tokens_in, action.tokens_out) == ("save it", 100, 10)
    prompt = text_of(agent.client.asked[0][1])
    assert '1: {"class": "Button", "text": "Save"' in prompt
    assert "LinearLayout" not in prompt  # nothing to act on or read
    assert "Write the title 'Shopping'" in prompt


def test_t3a_types_through_a_selector_that_finds_the_field() -> None:
    action = run(T3A(), 'Action: {"action_type": "input_text", "text": "Shopping", "index": 0}')
    assert action.kind == "type" and action.text == "Shopping"
    assert UiTree(XML).select(action.selector).id == f"{PKG}:id/title"


@pytest.mark.parametrize(
    "answer, problem",
    [
        ("I would tap the save button.", "no JSON object"),
        ('Action: {"action_type": "click", "index": 7}', "there is no element 7 (elements: 0..2)"),
        ('Action: {"action_type": "fly"}', "unknown action_type 'fly'"),
        ('Action: {"action_type": "scroll", "direction": "sideways"}', "scroll direction"),
    ],
)
def test_an_unreadable_answer_is_an_invalid_step_with_its_tokens(answer: str, problem: str) -> None:
    action = run(T3A(), answer)
    with pytest.raises(InvalidAction, match="unreadable model answer") as info:
        Action.parse(action)
    assert problem in str(info.value)
    assert action.tokens_in == 100  # the harness records the model's tokens on the invalid step


def test_giving_up_is_a_done_that_says_infeasible() -> None:
    agent = T3A()
    action = run(agent, 'Reason: there is no such note\nAction: {"action_type": "status", "goal_status": "infeasible"}')
    assert action.kind == "done" and action.reasoning == "infeasible: there is no such note"
    usage = agent.episode_usage()
    assert usage["gave_up"] and usage["give_up_reason"] == "there is no such note"
    assert (usage["model_calls"], usage["tokens_in"], usage["tokens_out"]) == (1, 100, 10)


def test_t3a_history_summaries_and_rejections_reach_the_next_prompt() -> None:
    agent = T3A()
    agent.client = ScriptedClient(
        [
            'Reason: a\nAction: {"action_type": "click", "index": 2}',
            "Summary: nothing happened.",
            'Action: {"action_type": "navigate_back"}',
        ]
    )
    agent.reset(TASK)
    agent.step(observe(1))
    assert agent.step(observe(2, last_error="no element matches")).kind == "key"
    summary_request, second = agent.client.asked[1], agent.client.asked[2]
    assert text_of(summary_request[-1]).startswith("STEP SUMMARY")
    assert '1. {"action_type": "click", "index": 2}: nothing happened. [rejected: no element matches]' in text_of(
        second[1]
    )


def test_m3a_sends_the_marked_screenshot() -> None:
    agent = M3A()
    run(agent, 'Action: {"action_type": "click", "index": 1}')
    parts = agent.client.asked[0][1]["content"]
    image = [p for p in parts if p["type"] == "image_url"][0]["image_url"]["url"]
    import base64

    img = Image.open(io.BytesIO(base64.b64decode(image.split(",", 1)[1])))
    assert img.size == (1080 // 5, 2340 // 5)  # fitted into 512 px by a whole factor
    corner = img.convert("RGB").crop((160, 400, 170, 410))  # Save's box, (800, 2000) / 5
    assert corner.getcolors() != [(corner.width * corner.height, (255, 255, 255))]  # its mark is drawn


def test_marks_are_the_labels_drawn_in_place() -> None:
    """The pasted label stamps give the very pixels of drawing each number on the screen."""
    from PIL import ImageDraw

    from pytest_mobile_agent.agents.baselines.elements import ui_elements
    from pytest_mobile_agent.agents.baselines.marks import BOX, LABEL_BG, LABEL_FG, draw_marks, screen_image
    from pytest_mobile_agent.drawing import font

    elements = ui_elements(UiTree(XML), (1080, 2340), start=8)  # two-digit numbers too
    screen, scale = screen_image(png(), 1024)
    marked = draw_marks(screen.copy(), elements, scale)
    draw, f = ImageDraw.Draw(screen), font(max(10, round(28 * scale)))
    for el in elements:
        l, t, r, b = (round(v * scale) for v in el.bounds)
        draw.rectangle((l, t, max(l, r - 1), max(t, b - 1)), outline=BOX, width=max(1, round(3 * scale)))
        tl, tt, tr, tb = draw.textbbox((0, 0), str(el.number), font=f)
        draw.rectangle((l, t, l + tr - tl + 4, t + tb - tt + 4), fill=LABEL_BG)
        draw.text((l + 2 - tl, t + 2 - tt), str(el.number), fill=LABEL_FG, font=f)
    assert marked.tobytes() == screen.tobytes()
    assert [e.number for e in elements][0] == 8 and elements[-1].number >= 10  # one and two digits drawn


def test_an_unchanged_screen_is_decoded_once_and_each_caller_draws_on_its_own_copy() -> None:
    from pytest_mobile_agent.agents.baselines.marks import _fitted, screen_image

    shot = png()
    first, _ = screen_image(shot, 1024)
    first.paste((0, 0, 0), (0, 0, 50, 50))
    hits = _fitted.cache_info().hits
    again, scale = screen_image(shot, 1024)
    assert _fitted.cache_info().hits == hits + 1
    assert again.getpixel((0, 0)) == (255, 255, 255) and scale == 1 / 3


def test_appagent_grammar_and_grid() -> None:
    agent = AppAgent()
    agent.client = ScriptedClient(
        [
            'Observation: x\nThought: type\nAction: text("milk, eggs")\nSummary: typed',
            "Observation: x\nThought: swipe\nAction: swipe(3, up, medium)\nSummary: s",
            "Observation: x\nThought: no label\nAction: grid()\nSummary: g",
            'Observation: x\nThought: t\nAction: tap(1, "center")\nSummary: t',
            "Observation: x\nThought: all done\nAction: FINISH\nSummary: done",
        ]
    )
    agent.reset(TASK)
    typed, swipe, grid, tap, done = (agent.step(observe(i)) for i in range(1, 6))
    assert (typed.kind, typed.text) == ("type", "milk, eggs")
    assert (swipe.kind, swipe.x, swipe.y, swipe.x2, swipe.y2) == ("swipe", 540, 1100, 540, 164)
    assert grid.kind == "wait" and "numbered areas" in text_of(agent.client.asked[3][1])
    assert (tap.kind, tap.x, tap.y) == ("tap", 90, 90)
    assert done.kind == "done" and done.reasoning == "all done"
    assert "1: {" in text_of(agent.client.asked[0][1])  # the legend numbers from 1


def test_mobile_bench_html_and_api_calls() -> None:
    agent = MobileBench()
    api = run(agent, f"Thought: open it\nAction: api(adb shell am start -a android.intent.action.MAIN -p {PKG})")
    assert Action.parse(api).command == f"am start -a android.intent.action.MAIN -p {PKG}"
    page = text_of(agent.client.asked[0][1])
    assert (
        f'<button index="2" id="{PKG}:id/save" class="android.widget.Button" package="{PKG}" clickable="true">'
        f"Save</button>" in page
    )
    assert 'scrollable="true" bounds="[0,300][1080,1900]"' in page
    forbidden = run(MobileBench(), "Action: api(adb shell input tap 5 5)")
    with pytest.raises(InvalidAction, match="not allowed"):
        Action.parse(forbidden)
    typed = run(MobileBench(), 'Thought: t\nAction: input(1, "Shopping")')
    assert typed.kind == "type" and typed.selector.resourceId == f"{PKG}:id/title"


def test_a_variant_overrides_one_prompt_file(tmp_path: Path) -> None:
    (tmp_path / "t3a_system.txt").write_text("You are terse. Answer with Action: {json} only.")

    class TerseT3A(T3A):
        name = "t3a-terse"
        prompt_dir = tmp_path

    agent = TerseT3A()
    run(agent, 'Action: {"action_type": "click", "index": 1}')
    system, user = agent.client.asked[0]
    assert system["content"] == "You are terse. Answer with Action: {json} only."
    assert "The elements on the current screen" in text_of(user)  # the step template is the built-in one


def test_the_built_ins_load_by_name_and_need_a_model(tmp_path: Path) -> None:
    assert [type(load_agent(n)).__name__ for n in ("t3a", "m3a", "appagent", "mobile-bench")] == [
        "T3A",
        "M3A",
        "AppAgent",
        "MobileBench",
    ]
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--agent=t3a",
            "--collect-only",
            "-q",
            "-p",
            "no:randomly",
            str(root / "task_suites" / "mobileagentbench" / "test_calculator.py"),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert proc.returncode == 4, proc.stdout + proc.stderr
    assert "--agent=t3a needs a model: pass --mobile-model NAME" in proc.stderr


def test_an_api_calls_output_reaches_the_history() -> None:
    agent = MobileBench()
    agent.client = ScriptedClient(
        [f"Action: api(adb shell am start -a android.intent.action.MAIN -p {PKG})", "Action: finish()"]
    )
    agent.reset(TASK)
    agent.step(observe(1))
    obs = observe(2)
    obs.last_output = "Starting: Intent { act=android.intent.action.MAIN }\n"
    assert agent.step(obs).kind == "done"
    assert "[output: Starting: Intent { act=android.intent.action.MAIN }]" in text_of(agent.client.asked[1][1])
