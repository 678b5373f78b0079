"""SPA-Bench's coarse-to-fine judge: key components by OCR first; only a task whose
screenshots show them all goes on to the MLLM judge (a failed coarse check saves the model
call: SPA-Bench's "reduction rate"). A task without key components goes straight to the fine
judge, as SPA-Bench's --skip_key_components does."""

from __future__ import annotations

from pytest_mobile_agent.judges.base import Trajectory, Verdict
from pytest_mobile_agent.judges.key_components import KeyComponentsJudge
from pytest_mobile_agent.judges.mllm import MllmJudge


class SpaJudge:
    name = "spa"
    needs_screenshots = True

    def __init__(self, coarse: KeyComponentsJudge, fine: MllmJudge) -> None:
        self.coarse, self.fine = coarse, fine

    def judge(self, trajectory: Trajectory) -> Verdict:
        coarse = self.coarse.judge(trajectory)
        if coarse.passed is False:
            return Verdict(False, f"coarse: {coarse.reason}", details={"stage": "coarse", "fine_skipped": True})
        fine = self.fine.judge(trajectory)
        fine.reason = f"coarse: {coarse.reason}; fine: {fine.reason}"
        fine.details = {**fine.details, "stage": "fine", "coarse": coarse.passed}
        return fine
