"""The native GUI agents' models and the coordinate convention each name tells: the first row of
an agent is the model its whole-suite golden run uses (test_golden_model.py, which also replays
it), the others run the calculator tasks (test_gui_agent_suites.py)."""

from __future__ import annotations

# (agent, model name, the coordinate convention that name tells)
CONVENTIONS = [
    ("ui-tars", "UI-TARS-1.5-7B", "absolute"),
    ("ui-tars", "bytedance-research/UI-TARS-7B-SFT", "relative"),
    ("qwen-vl", "Qwen2.5-VL-7B-Instruct", "absolute"),
    ("qwen-vl", "Qwen/Qwen3-VL-8B-Instruct", "relative"),
    ("autoglm", "zai-org/AutoGLM-Phone-9B", "relative"),
    ("gui-owl", "mPLUG/GUI-Owl-1.5-8B-Instruct", "relative"),
    ("gui-owl", "mPLUG/GUI-Owl-7B", "absolute"),
    ("agentcpm-gui", "openbmb/AgentCPM-GUI", "relative"),
    ("openai-computer-use", "computer-use-preview", "absolute"),
    ("openai-computer-use", "gpt-5.4", "absolute"),
    ("anthropic-computer-use", "claude-haiku-4-5-20251001", "absolute"),  # computer_20250124
    ("anthropic-computer-use", "claude-sonnet-4-6", "absolute"),  # computer_20251124
    ("gemini-computer-use", "gemini-2.5-computer-use-preview-10-2025", "relative"),  # the 0-999 grid
]
# The answer each agent's golden run records on the calculator tasks (AgentCPM-GUI's schema has none).
ANSWERS = {"agentcpm-gui": None}
FIRST: dict[str, tuple[str, str]] = {}  # agent: (model, convention) of its first row
for _agent, _model, _convention in CONVENTIONS:
    FIRST.setdefault(_agent, (_model, _convention))
OTHERS = [row for row in CONVENTIONS if FIRST[row[0]][0] != row[1]]
