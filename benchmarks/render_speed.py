"""PNG render time of a busy 1080x2340 screen (about 160 views): cold and cached; and of a
Gallery-like grid of 24 thumbnails, drawn as generated placeholders (before media were decoded)
and from the files' own pixels (JPEGs decoded once, then from the thumbnail cache).

Run: python benchmarks/render_speed.py [out.png]
"""

from __future__ import annotations

import io
import statistics
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image, ImageDraw

from pytest_mobile_agent.virtual.ui import layout, screen, widgets
from pytest_mobile_agent.virtual.ui.render import media
from pytest_mobile_agent.virtual.ui.render.renderer import ScreenRenderer
from pytest_mobile_agent.virtual.ui.view import EDIT, FRAME, LINEAR, View

W, H, DENSITY = 1080, 2340, 420
SCALE = DENSITY / 160


def busy_screen(seed: int = 0, ticked: int = 2) -> View:
    """A gallery-like list screen: toolbar, tabs, search field, rows, FAB."""
    bar = View(
        LINEAR,
        orientation="h",
        height=56,
        kind="toolbar",
        color="#f57c00",
        children=[
            View(kind="icon", icon="back", width=48, height=48, desc="Back"),
            View(kind="text", text="Gallery", text_size=20, bold=True, weight=1, padding=12),
            View(kind="icon", icon="search", width=48, height=48),
            View(kind="icon", icon="sort", width=48, height=48),
            View(kind="icon", icon="more", width=48, height=48),
        ],
    )
    tabs = View(
        LINEAR,
        orientation="h",
        height=48,
        color="#f57c00",
        children=[
            View(kind="tab", text=t, weight=1, selected=i == 0) for i, t in enumerate(("Photos", "Videos", "Albums"))
        ],
    )
    search = View(EDIT, kind="edit", hint="Search files", height=56, padding=8)
    rows = []
    for i in range(seed, seed + 24):
        rows.append(
            View(
                LINEAR,
                orientation="h",
                height=72,
                kind="row",
                padding=8,
                checked=i == 2,
                children=[
                    View(kind="thumb", id=f"img{i}", width=56, height=56),
                    View(
                        LINEAR,
                        weight=1,
                        padding=4,
                        children=[
                            View(kind="text", text=f"IMG_2024{i:04d}.jpg", text_size=16),
                            View(kind="text", text=f"{(i * 37) % 900 + 100} KB · Jan {i % 28 + 1}, 2024", text_size=14),
                        ],
                    ),
                    View(kind="checkbox", checked=i == ticked, width=48, height=48),
                ],
            )
        )
    listing = View("androidx.recyclerview.widget.RecyclerView", scrollable=True, weight=1, children=rows)
    fab = View(kind="fab", icon="add", width=56, height=56, gravity="end", vgravity="end")
    body = View(LINEAR, children=[bar, tabs, search, listing])
    corner = View(FRAME, padding=16, orientation="stack", children=[fab])
    return View(FRAME, orientation="stack", children=[body, corner])


def frame_of(root: View, version: int = 1) -> screen.Frame:
    layout.layout(root, (0, round(24 * SCALE), W, H - round(48 * SCALE)), SCALE)
    return screen.Frame(version, [screen.Window("activity", "com.example", ".Main", root)])


def photos(folder: Path, n: int = 48) -> list[Path]:
    """n distinct 640x480 JPEGs (about 10 kB each), as a phone's small photos."""
    out = []
    for i in range(n):
        img = Image.new("RGB", (640, 480), (40 + i * 4 % 200, 120, 200 - i * 3 % 150))
        ImageDraw.Draw(img).ellipse((100 + i * 5, 80, 400 + i * 3, 400), fill=(240, 200 - i * 2, 60))
        buf = io.BytesIO()
        img.save(buf, "JPEG", quality=80)
        out.append(folder / f"IMG_{i:04d}.jpg")
        out[-1].write_bytes(buf.getvalue())
    return out


def media_grid(files: list[Path], first: int, from_pixels: bool) -> View:
    """A toolbar and 8 rows of 3 square thumbnails, files[first:first + 24]."""
    bar = View(LINEAR, height=56, kind="toolbar", color="#f57c00")
    cells = [
        widgets.media("thumb", path, weight=1) if from_pixels else View(kind="image", key=path.name, weight=1)
        for path in files[first : first + 24]
    ]
    rows = [View(LINEAR, orientation="h", height=130, children=cells[i : i + 3]) for i in range(0, 24, 3)]
    grid = View("androidx.recyclerview.widget.RecyclerView", scrollable=True, weight=1, children=rows)
    return View(LINEAR, children=[bar, grid])


def grid_figures(files: list[Path]) -> None:
    print("gallery grid, 24 thumbnails, a new screen each time (median of 8 scrolls):")
    for label, from_pixels in (("generated placeholders (before)", False), ("from the files' pixels", True)):
        renderer = ScreenRenderer(W, H, SCALE)
        timed(renderer, [frame_of(media_grid(files, 0, from_pixels))])  # fonts and glyphs loaded
        decodes = media.decodes
        cold = timed(renderer, [frame_of(media_grid(files, 3 * (i + 1), from_pixels)) for i in range(8)])
        cold_decodes = media.decodes - decodes
        # The same screens again with a fresh screen cache: every thumbnail is a cache hit.
        renderer = ScreenRenderer(W, H, SCALE)
        warm = timed(renderer, [frame_of(media_grid(files, 3 * (i + 1), from_pixels)) for i in range(8)])
        new, cached = statistics.median(cold), statistics.median(warm)
        print(
            f"  {label + ':':34s} {new:6.1f} ms median, {min(cold):.1f} best with new thumbnails"
            f" ({cold_decodes} decoded); {cached:6.1f} ms median, {min(warm):.1f} best with cached ones"
        )


def timed(renderer: ScreenRenderer, frames: list[screen.Frame]) -> list[float]:
    out = []
    for frame in frames:
        t = time.perf_counter()
        renderer.png(frame, "9:00")
        out.append((time.perf_counter() - t) * 1000)
    return out


def main() -> None:
    renderer = ScreenRenderer(W, H, SCALE)
    first = timed(renderer, [frame_of(busy_screen())])[0]  # also loads fonts, rasterizes glyphs
    # A new screen where every row changed (a scroll), and one where one checkbox changed (a tap).
    scrolled = timed(renderer, [frame_of(busy_screen(seed=(i + 1) * 30)) for i in range(8)])
    tapped = timed(renderer, [frame_of(busy_screen(seed=240, ticked=241 + i)) for i in range(8)])
    frame = frame_of(busy_screen(seed=240, ticked=248))
    t = time.perf_counter()
    for _ in range(100):
        data = renderer.png(frame, "9:00")
    cached = (time.perf_counter() - t) * 10
    views = sum(1 for _ in frame.windows[0].root.walk())
    print(f"{views} views, png {len(data)} bytes, {renderer.renders} screens drawn")
    print(f"first png of a new renderer:         {first:6.1f} ms")
    for name, ts in (("every row changed", scrolled), ("one checkbox changed", tapped)):
        print(f"cold png, {name + ':':22s}    {statistics.median(ts):6.1f} ms median, {min(ts):.1f} best")
    print(f"cached png:                          {cached:6.3f} ms")
    with tempfile.TemporaryDirectory() as folder:
        grid_figures(photos(Path(folder)))
    if len(sys.argv) > 1:
        with open(sys.argv[1], "wb") as f:
            f.write(renderer.png(frame_of(busy_screen()), "9:00"))


if __name__ == "__main__":
    main()
