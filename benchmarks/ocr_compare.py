"""OCR engines side by side on the virtual device's screens (English) and on Chinese text
rendered in a CJK font, for the key-component judge (docs/ocr-choice.md has a run's figures).

Run: python benchmarks/ocr_compare.py [--screens 20] [--rapidocr3 PATH]

Engines (each with one CPU thread and the angle classifier off, screens downscaled alike):
- rapidocr-onnxruntime 1.4 (PP-OCRv4 Chinese+English models in the wheel): the one chosen;
- rapidocr 3.x (PP-OCRv6 small models in the wheel), when importable (pip install rapidocr, or
  --rapidocr3 DIR holding it);
- tesseract 5 with eng+chi_sim (Debian: tesseract-ocr tesseract-ocr-chi-sim), when on PATH.
easyocr is left out: it downloads its models at run time.

English screens: the oracle's final screenshot of N suite tasks (one run of the suite with
--mobile-artifacts). Recall = the share of the screen's texts (hierarchy texts of 2+ characters
inside the screen) found in the engine's joined, whitespace-free, lowercased output, SPA-Bench's
matching; key components = the share of those tasks whose key components the engine finds
(tasks whose components only a screen on the way shows, EARLIER_SCREEN, count as having none).
Chinese: 24 UI phrases rendered on light rows at a phone's text size. Times are medians per
screenshot after a warm-up; on a shared machine they are noisy: compare within one run.
"""

from __future__ import annotations

import argparse
import io
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from pytest_mobile_agent.device.ui_tree import UiTree  # noqa: E402
from pytest_mobile_agent.judges.key_components import matches, normalize  # noqa: E402
from pytest_mobile_agent.judges.ocr import MAX_SIDE  # noqa: E402
from pytest_mobile_agent.reporting.trajectory import slug  # noqa: E402

CJK_FONT = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"
CHINESE = [
    "设置",
    "新建联系人",
    "搜索",
    "计算器",
    "日历",
    "文件管理器",
    "图库",
    "音乐播放器",
    "笔记",
    "录音机",
    "短信",
    "关于",
    "常见问题",
    "删除",
    "重命名",
    "收藏",
    "按大小排序",
    "显示隐藏文件",
    "播放历史",
    "汇率换算",
    "闹钟已设置为早上七点",
    "会议主题是新产品发布",
    "北京市朝阳区",
    "回收站是空的",
]


def downscaled(png: bytes, side: int = MAX_SIDE) -> Image.Image:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    scale = side / max(image.size)
    if scale < 1:
        image = image.resize((round(image.width * scale), round(image.height * scale)), Image.Resampling.BILINEAR)
    return image


def rapidocr_v1() -> Callable[[Image.Image], list[str]]:
    import numpy as np
    from rapidocr_onnxruntime import RapidOCR

    engine = RapidOCR(
        use_cls=False, det_limit_side_len=MAX_SIDE, det_limit_type="max", intra_op_num_threads=1, inter_op_num_threads=1
    )
    return lambda image: [t for _b, t, _c in (engine(np.asarray(image)[:, :, ::-1])[0] or [])]


def rapidocr_v3(path: str | None) -> Callable[[Image.Image], list[str]] | None:
    if path:
        sys.path.insert(0, path)
    try:
        import numpy as np
        from rapidocr import RapidOCR
    except ImportError:
        return None
    engine = RapidOCR(
        params={
            "Global.use_cls": False,
            "Global.log_level": "error",
            "Det.limit_side_len": MAX_SIDE,
            "Det.limit_type": "max",
            "EngineConfig.onnxruntime.intra_op_num_threads": 1,
            "EngineConfig.onnxruntime.inter_op_num_threads": 1,
        }
    )
    return lambda image: list(engine(np.asarray(image)[:, :, ::-1]).txts or ())


def tesseract() -> Callable[[Image.Image], list[str]] | None:
    if not shutil.which("tesseract"):
        return None

    def run(image: Image.Image) -> list[str]:
        buf = io.BytesIO()
        image.save(buf, "PNG")
        out = subprocess.run(
            ["tesseract", "stdin", "stdout", "-l", "eng+chi_sim"],
            input=buf.getvalue(),
            capture_output=True,
            env={"OMP_THREAD_LIMIT": "1", "PATH": "/usr/bin:/bin"},
        )
        return [line for line in out.stdout.decode().splitlines() if line.strip()]

    return run


def english_screens(count: int) -> list[tuple[Image.Image, list[str], list[str]]]:
    """(screenshot, its visible texts, the task's key components) for `count` oracle runs."""
    from task_suites.mobileagentbench.judge_inputs import EARLIER_SCREEN, JUDGE_INPUTS

    art = Path(tempfile.mkdtemp(prefix="ocr-compare-"))
    results = art / "r.jsonl"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "task_suites/mobileagentbench",
            "-m",
            "not online",
            "--agent=oracle",
            "-q",
            "-p",
            "no:randomly",
            f"--mobile-artifacts={art}",
            f"--mobile-results={results}",
        ],
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    screens = []
    records = [json.loads(line) for line in results.read_text().splitlines()]
    episodes = [r for r in records if r["type"] == "episode"]
    for r in episodes[:: max(1, len(episodes) // count)][:count]:
        folder = art / slug(r["nodeid"])
        png = sorted(folder.glob("step-*.png"))[-1].read_bytes()
        tree = UiTree((folder / "final.xml").read_text())
        width, height = Image.open(io.BytesIO(png)).size
        texts = [
            n.text
            for n in tree.nodes()
            if len(n.text.strip()) >= 2
            and "\n" not in n.text
            and n.bounds[1] >= 0
            and n.bounds[3] <= height
            and n.bounds[0] >= 0
            and n.bounds[2] <= width
        ]
        key = r["task"] if not r["task"].startswith("test_") else r["nodeid"].split("[")[1].split("-")[0]
        keys = [] if key in EARLIER_SCREEN else JUDGE_INPUTS[key].get("key_components", [])
        screens.append((downscaled(png), texts, keys))
    shutil.rmtree(art, ignore_errors=True)
    return screens


def chinese_screens() -> list[tuple[Image.Image, list[str], list[str]]]:
    font = ImageFont.truetype(CJK_FONT, 44)
    screens = []
    for start in range(0, len(CHINESE), 8):
        phrases = CHINESE[start : start + 8]
        image = Image.new("RGB", (1080, 2340), (250, 250, 250))
        draw = ImageDraw.Draw(image)
        for i, text in enumerate(phrases):
            top = 200 + i * 220
            draw.rectangle((0, top, 1080, top + 180), fill=(255, 255, 255) if i % 2 else (240, 243, 247))
            draw.text((60, top + 60), text, font=font, fill=(33, 33, 33))
        buf = io.BytesIO()
        image.save(buf, "PNG")
        screens.append((downscaled(buf.getvalue()), phrases, phrases))
    return screens


def measure(engine: Callable[[Image.Image], list[str]], screens: list) -> dict[str, float]:
    engine(screens[0][0])  # warm-up: model loading and first-run allocations
    times, found, total, keys_ok = [], 0, 0, 0
    for image, texts, keys in screens:
        t0 = time.perf_counter()
        out = engine(image)
        times.append(time.perf_counter() - t0)
        joined = normalize("".join(out))
        found += sum(normalize(t) in joined for t in texts)
        total += len(texts)
        keys_ok += bool(keys) and matches(out, keys)
    with_keys = sum(bool(k) for _, _, k in screens)
    return {
        "recall": found / total,
        "keys": keys_ok / with_keys if with_keys else float("nan"),
        "median_s": statistics.median(times),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--screens", type=int, default=20)
    parser.add_argument("--rapidocr3", default=None, help="a directory holding the rapidocr 3.x package")
    args = parser.parse_args()
    engines = {
        "rapidocr-onnxruntime 1.4 (PP-OCRv4)": rapidocr_v1(),
        "rapidocr 3.x (PP-OCRv6 small)": rapidocr_v3(args.rapidocr3),
        "tesseract 5 eng+chi_sim": tesseract(),
    }
    english, chinese = english_screens(args.screens), chinese_screens()
    print(
        f"{len(english)} English screens (oracle final screenshots), {len(chinese)} Chinese screens "
        f"({len(CHINESE)} phrases); images downscaled to {MAX_SIDE} px on the long side"
    )
    header = (
        f"{'engine':36} {'EN text recall':>14} {'EN key comps':>12} {'EN s/shot':>9} {'ZH recall':>9} {'ZH s/shot':>9}"
    )
    print(header)
    print("-" * len(header))
    base = None
    for name, engine in engines.items():
        if engine is None:
            print(f"{name:36} (not installed)")
            continue
        en, zh = measure(engine, english), measure(engine, chinese)
        base = base or en["median_s"]
        print(
            f"{name:36} {en['recall']:>14.1%} {en['keys']:>12.1%} {en['median_s']:>9.2f} "
            f"{zh['recall']:>9.1%} {zh['median_s']:>9.2f}   (EN time x{en['median_s'] / base:.1f})"
        )


if __name__ == "__main__":
    main()
