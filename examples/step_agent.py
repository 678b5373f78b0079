"""A small step agent: solves calculator prompts by tapping the expression's keys, then '='.

Run it:  pytest task_suites -k calculator --agent=examples/step_agent.py

A real agent would send `observation.prompt`, `observation.screenshot` (PNG bytes) and/or
`observation.hierarchy` to its model here; this one reads the prompt itself, so the example
runs offline. It shows the whole step-agent surface: the observation, selector and pixel
actions, reasoning and token reporting, and `Done`.
"""

from __future__ import annotations

import re
from dataclasses import replace

from pytest_mobile_agent import Done, Observation, Tap

KEYS = set("0123456789.+-×÷^√%")
ALIASES = {"*": "×", "/": "÷", "x": "×"}


class Agent:
    name = "calculator-keys"
    model = None  # set to a name in the price table (e.g. "gpt-4o") to get costs

    def step(self, observation: Observation):
        quoted = re.search(r"'([^']+)'", observation.prompt)
        if quoted is None:
            return Done("I only know calculator prompts")
        keys = [ALIASES.get(ch, ch) for ch in quoted.group(1) if ALIASES.get(ch, ch) in KEYS] + ["="]
        i = len(observation.history)
        if i >= len(keys):
            return Done(f"result shows {observation.ui.text_of('result')}")
        node = observation.ui.find(text=keys[i], clickable=True)
        if node is None:  # not on screen: a selector would fail, so say why and stop
            return Done(f"no key {keys[i]!r} on screen")
        # By pixel, as a vision agent would; reasoning and token counts go into the reports.
        return replace(Tap(*node.center), reasoning=f"press {keys[i]}", tokens_in=0, tokens_out=0)
