"""OCR of screenshots for the key-component judge, cached on disk by screenshot hash.

The engine is RapidOCR (`rapidocr-onnxruntime`): PaddleOCR's PP-OCRv4 Chinese-and-English
detection and recognition models, converted to ONNX and shipped inside the wheel, so nothing
is downloaded at run time (docs/ocr-choice.md compares it with tesseract). SPA-Bench itself
uses PaddleOCR.

Screenshots are downscaled to at most `MAX_SIDE` (800) pixels on the long side before OCR (a
1080x2340 screen's text stays legible: the same texts were read at 800 as at 1280, 2.4x
faster); the text-angle classifier is off (screens are upright) and ONNX Runtime gets one
thread per process (xdist runs one process per CPU; on a shared machine, threads that
outnumber the cores made OCR five times slower). Results are kept
as JSON files named by the SHA-256 of the PNG bytes (plus the engine and scale) under the
cache directory: shared by xdist workers (each file is written to a temporary name and
renamed, so readers never see half a file) and across sessions.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import tempfile
import threading
from pathlib import Path

from pytest_mobile_agent.extras import require

MAX_SIDE = 800
ENGINE = "rapidocr-onnxruntime-ppocrv4-nocls"
DEFAULT_CACHE = Path(os.environ.get("MOBILE_OCR_CACHE", Path.home() / ".cache" / "pytest-mobile-agent" / "ocr"))

_engine = None
_lock = threading.Lock()


def _rapidocr():  # noqa: ANN202 - the engine's own type
    global _engine
    with _lock:
        if _engine is None:
            RapidOCR = require("rapidocr_onnxruntime", "OCR (the key-components and spa judges)").RapidOCR
            _engine = RapidOCR(
                use_cls=False,
                det_limit_side_len=MAX_SIDE,
                det_limit_type="max",
                intra_op_num_threads=1,
                inter_op_num_threads=1,
            )
        return _engine


def _downscaled(png: bytes, max_side: int):  # noqa: ANN202 - a numpy array
    import numpy as np
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    scale = max_side / max(image.size)
    if scale < 1:
        image = image.resize((round(image.width * scale), round(image.height * scale)), Image.Resampling.BILINEAR)
    return np.asarray(image)[:, :, ::-1]  # RGB -> BGR, as OpenCV-based engines expect


def recognize(png: bytes, *, max_side: int = MAX_SIDE) -> list[str]:
    """The texts OCR reads in a screenshot, top to bottom (uncached)."""
    result, _ = _rapidocr()(_downscaled(png, max_side))
    return [text for _box, text, _conf in (result or [])]


def recognize_boxes(png: bytes, *, max_side: int = MAX_SIDE) -> list[tuple[str, tuple[float, float, float, float]]]:
    """The texts OCR reads in a picture with their boxes (x0, y0, x1, y1) in the picture's own
    pixels, top to bottom (uncached): for comparing where texts sit on two screens."""
    from PIL import Image

    width, height = Image.open(io.BytesIO(png)).size
    scale = min(1.0, max_side / max(width, height))
    result, _ = _rapidocr()(_downscaled(png, max_side))
    out = []
    for box, text, _conf in result or []:
        xs, ys = [p[0] / scale for p in box], [p[1] / scale for p in box]
        out.append((text, (min(xs), min(ys), max(xs), max(ys))))
    return out


class OcrCache:
    """`texts(png)`: OCR results by screenshot hash, on disk and in memory."""

    def __init__(self, folder: Path | str | None = DEFAULT_CACHE, *, max_side: int = MAX_SIDE) -> None:
        self.folder = Path(folder) if folder is not None else None
        self.max_side = max_side
        self.memory: dict[str, list[str]] = {}
        self.hits = self.misses = 0

    def key(self, png: bytes) -> str:
        return hashlib.sha256(png + f"|{ENGINE}|{self.max_side}".encode()).hexdigest()

    def texts(self, png: bytes) -> list[str]:
        key = self.key(png)
        if key in self.memory:
            self.hits += 1
            return self.memory[key]
        path = self.folder / key[:2] / f"{key}.json" if self.folder else None
        if path is not None and path.exists():
            try:
                texts = json.loads(path.read_text(encoding="utf-8"))
                self.hits += 1
                self.memory[key] = texts
                return texts
            except (OSError, ValueError):
                pass  # a damaged entry is recomputed and replaced
        self.misses += 1
        texts = recognize(png, max_side=self.max_side)
        self.memory[key] = texts
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(texts, f, ensure_ascii=False)
            os.replace(tmp, path)
        return texts
