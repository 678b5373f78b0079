"""SPA-Bench's coarse detection (Chen et al., ICLR 2025, §5.2 and App. D.1): the key
components of the final state, found by OCR in the screenshots.

A task declares `key_components=["8", "3+5"]`: texts that must appear on the final screen when
the task is done. The screenshots are read by OCR (ocr.py); their texts are joined, lowercased
and stripped of all whitespace (as SPA-Bench's pipeline/key_component_matcher.py does), and a
screenshot matches when every key component, lowercased and without whitespace, is a substring.
Matching starts at the last screenshot and moves backwards until one matches or the first is
passed; no match fails the task (and, in `spa`, skips the fine judge).
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence

from pytest_mobile_agent.judges.base import Trajectory, Verdict
from pytest_mobile_agent.judges.ocr import OcrCache

_SPACE = re.compile(r"\s+")


def normalize(text: str) -> str:
    return _SPACE.sub("", text).lower()


def matches(ocr_texts: Sequence[str], key_components: Sequence[str]) -> bool:
    screen = normalize("".join(ocr_texts))
    return all(normalize(kc) in screen for kc in key_components)


class KeyComponentsJudge:
    name = "key-components"
    needs_screenshots = True

    def __init__(self, cache: OcrCache | None = None) -> None:
        self.cache = cache or OcrCache()

    def judge(self, trajectory: Trajectory) -> Verdict:
        keys = trajectory.inputs.get("key_components")
        if not keys:
            return Verdict(None, "the task declares no key components")
        keys = [keys] if isinstance(keys, str) else list(keys)
        shots = [(i, png) for i, png in enumerate(trajectory.screenshots) if png]
        if not shots:
            return Verdict(None, "no screenshots were kept")
        t0 = time.perf_counter()
        for scanned, (index, png) in enumerate(reversed(shots), start=1):
            if matches(self.cache.texts(png), keys):
                return Verdict(
                    True,
                    f"all key components {keys} are on screenshot {index}",
                    details={"screenshot": index, "scanned": scanned, "ocr_s": time.perf_counter() - t0},
                )
        final = normalize("".join(self.cache.texts(shots[-1][1])))
        missing = [k for k in keys if normalize(k) not in final]
        return Verdict(
            False,
            f"no screenshot shows all key components; the last lacks {missing}",
            details={"scanned": len(shots), "ocr_s": time.perf_counter() - t0},
        )
