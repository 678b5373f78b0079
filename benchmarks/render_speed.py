"""PNG render time of a busy 1080x2340 screen (about 160 views): cold and cached.

Run: python benchmarks/render_speed.py [out.png]
"""

from __future__ import annotations

import statistics
import sys
import time

from pytest_mobile_agent.virtual.ui import layout, screen
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
    if len(sys.argv) > 1:
        with open(sys.argv[1], "wb") as f:
            f.write(renderer.png(frame_of(busy_screen()), "9:00"))


if __name__ == "__main__":
    main()
