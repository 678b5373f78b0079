"""recognize_boxes: OCR's boxes come back in the picture's own pixels, a picture larger than the
OCR's side included (read downscaled, boxes scaled back). The engine is stood in for here (it
takes seconds to load); benchmarks/fidelity.py runs the real one."""

from __future__ import annotations

import io

from PIL import Image

from pytest_mobile_agent.judges import ocr


class Engine:
    """Answers as RapidOCR does: ([[four corners], text, confidence], ...), elapsed; in the
    downscaled picture's pixels."""

    def __init__(self) -> None:
        self.shapes: list[tuple[int, ...]] = []

    def __call__(self, array):  # noqa: ANN001, ANN204 - the engine's own shape
        self.shapes.append(array.shape)
        corners = [[80, 120], [240, 120], [240, 150], [80, 150]]
        return [[corners, "Settings", 0.98]], 0.01


def png(width: int, height: int) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (width, height), (255, 255, 255)).save(buf, "PNG")
    return buf.getvalue()


def test_boxes_come_back_in_the_pictures_own_pixels(monkeypatch):
    engine = Engine()
    monkeypatch.setattr(ocr, "_rapidocr", lambda: engine)
    # 1600 px high: read at 800 (half), so the engine's box doubles.
    assert ocr.recognize_boxes(png(1080, 1600)) == [("Settings", (160.0, 240.0, 480.0, 300.0))]
    assert engine.shapes[-1][:2] == (800, 540)
    # A picture within the OCR's side is read as it is.
    assert ocr.recognize_boxes(png(600, 700)) == [("Settings", (80.0, 120.0, 240.0, 150.0))]
    assert engine.shapes[-1][:2] == (700, 600)
