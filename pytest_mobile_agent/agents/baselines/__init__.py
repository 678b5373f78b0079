"""The seeds' baseline agents, backed by a model through `pytest_mobile_agent.models`:
`--agent=NAME --mobile-model=MODEL`, NAME one of agents/loader.py's MODEL_AGENTS. Prompts live in
`../prompts/`."""

from __future__ import annotations

from pytest_mobile_agent.agents.baselines.agentcpm_gui import AgentCPMGUI
from pytest_mobile_agent.agents.baselines.anthropic_computer_use import AnthropicComputerUse
from pytest_mobile_agent.agents.baselines.appagent import AppAgent
from pytest_mobile_agent.agents.baselines.autoglm import AutoGLM
from pytest_mobile_agent.agents.baselines.base import ModelAgent
from pytest_mobile_agent.agents.baselines.gemini_computer_use import GeminiComputerUse
from pytest_mobile_agent.agents.baselines.gui_owl import GUIOwl
from pytest_mobile_agent.agents.baselines.m3a import M3A
from pytest_mobile_agent.agents.baselines.mobile_bench import MobileBench
from pytest_mobile_agent.agents.baselines.openai_computer_use import OpenAIComputerUse
from pytest_mobile_agent.agents.baselines.qwen_vl import QwenVL
from pytest_mobile_agent.agents.baselines.t3a import T3A
from pytest_mobile_agent.agents.baselines.ui_tars import UITars

MODEL_AGENTS = {
    "t3a": T3A,
    "m3a": M3A,
    "appagent": AppAgent,
    "mobile-bench": MobileBench,
    "ui-tars": UITars,
    "qwen-vl": QwenVL,
    "autoglm": AutoGLM,
    "gui-owl": GUIOwl,
    "agentcpm-gui": AgentCPMGUI,
    "openai-computer-use": OpenAIComputerUse,
    "anthropic-computer-use": AnthropicComputerUse,
    "gemini-computer-use": GeminiComputerUse,
}

__all__ = [
    "MODEL_AGENTS",
    "AgentCPMGUI",
    "AutoGLM",
    "GUIOwl",
    "GeminiComputerUse",
    "AnthropicComputerUse",
    "M3A",
    "T3A",
    "AppAgent",
    "UITars",
    "QwenVL",
    "MobileBench",
    "ModelAgent",
    "OpenAIComputerUse",
]
