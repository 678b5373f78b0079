"""PNG render time of a busy 1080x2340 screen (about 160 views): cold and cached; of a
Gallery-like grid of 24 thumbnails, drawn as generated placeholders (before media were decoded)
and from the files' own pixels (JPEGs decoded once, then from the thumbnail cache); then what
faithful drawing costs, side by side with the renderer before issue 28 ("today").

Run: python benchmarks/render_speed.py [out.png] [--baseline REV] [--rounds 3] [--episodes 8]

The side by side: the package as it was at REV (default BASELINE, the last commit before issue
28's first change) is unpacked with `git archive` into a temporary folder, and the same
measuring code runs against each tree in a child process, alternately, `--rounds` times (a
shared machine's load moves between runs). Printed: the best draw of each screen (what drawing
costs when nothing else runs: the figure least moved by other jobs) and the median of all
draws, with their ratios. Per tree:
each app's first screen on a fresh device at 1080x2340@440, drawn and encoded cold (the
renderer's own draw and PNG encoder, its cache bypassed), and the harness's time per step
(benchmarks/harness_overhead.py's oracle episodes on a virtual device over adb: observation,
action, events and check, the screenshot included). Each tree draws its own version of the
apps' screens: the figures are what a screenshot and a step cost then and now.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import statistics
import subprocess
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


ROOT = Path(__file__).resolve().parents[1]
BASELINE = "bc647bb5a0d89b9e168cddfd92b0d1f33769299f"  # the parent of 6ebdd90, issue 28's first commit
APPS = {
    "applauncher": "com.simplemobiletools.applauncher",
    "calculator": "com.simplemobiletools.calculator",
    "calendar": "com.simplemobiletools.calendar.pro",
    "contacts": "com.simplemobiletools.contacts.pro",
    "filemanager": "com.simplemobiletools.filemanager.pro",
    "gallery": "com.simplemobiletools.gallery.pro",
    "musicplayer": "com.simplemobiletools.musicplayer",
    "notes": "com.simplemobiletools.notes.pro",
    "smsmessenger": "com.simplemobiletools.smsmessenger",
    "voicerecorder": "com.simplemobiletools.voicerecorder",
}


def measure_tree(draws: int, episodes: int) -> dict[str, list[float]]:
    """Run in a child whose PYTHONPATH is one tree: the ms of each cold screenshot of each app's
    first screen, and of each harness step."""
    import tempfile as tmp

    from pytest_mobile_agent.virtual.boot import boot
    from pytest_mobile_agent.virtual.core.config import DeviceConfig
    from pytest_mobile_agent.virtual.shell import run_script
    from pytest_mobile_agent.virtual.shell.api import BufferOutput, Input

    out: dict[str, list[float]] = {}
    device = boot(Path(tmp.mkdtemp(prefix="render-speed-")), DeviceConfig(serial="render"))
    for name, package in APPS.items():
        run_script(device, f"monkey -p {package} 1", Input(closed=True), BufferOutput(), BufferOutput())
        frame, clock, renderer = device.wm.frame(), device.status_time(), device.renderer
        renderer._png.encode(renderer._draw(frame, clock))  # warm: fonts, glyphs, masks
        times = []
        for _ in range(draws):
            t = time.perf_counter()
            renderer._png.encode(renderer._draw(frame, clock))
            times.append((time.perf_counter() - t) * 1000)
        out[name] = times
    device.shutdown()
    if episodes:
        sys.path.insert(0, str(Path(__file__).parent))
        from harness_overhead import harness

        from pytest_mobile_agent.device.pool import DevicePool, DeviceSource

        pool = DevicePool(DeviceSource("virtual"))
        lease = pool.lease()
        try:
            harness(lease, pool, 2)  # warm up: listener install, caches
            steps, _ = harness(lease, pool, episodes)
        finally:
            pool.release()
        out["harness step"] = [t * 1000 for t in steps]
    return out


def unpack(rev: str, into: Path) -> Path:
    """The repository at `rev`, as files (no .git), with this checkout's listener APK (ignored by git)."""
    done = subprocess.run(["git", "-C", str(ROOT), "archive", rev], capture_output=True, check=False)
    if done.returncode != 0:  # a shallow clone, or a commit this clone does not have
        why = done.stderr.decode().strip()
        raise SystemExit(f"--baseline {rev}: git archive failed ({why}); fetch that commit or name another")
    archive = done.stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    apk = ROOT / "pytest_mobile_agent/device/listener.apk"
    if apk.exists():
        shutil.copy(apk, into / "pytest_mobile_agent/device/listener.apk")
    return into


def child(tree: Path, draws: int, episodes: int) -> dict[str, list[float]]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    cmd = [sys.executable, __file__, "--measure", str(draws), str(episodes)]
    done = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"measuring {tree} failed: {done.stderr.strip()[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def side_by_side(rev: str, rounds: int, draws: int, episodes: int) -> None:
    sys.path.insert(0, str(Path(__file__).parent))
    from reference import describe

    label = subprocess.run(
        ["git", "-C", str(ROOT), "log", "-1", "--format=%h %ad %s", "--date=short", rev],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    head = subprocess.run(["git", "-C", str(ROOT), "log", "-1", "--format=%h"], capture_output=True, text=True)
    with tempfile.TemporaryDirectory(prefix="render-baseline-") as folder:
        base = unpack(rev, Path(folder))
        runs: dict[str, dict[str, list[float]]] = {"base": {}, "now": {}}
        for _ in range(rounds):  # alternately, so that both see the same load
            for side, tree in (("base", base), ("now", ROOT)):
                for key, times in child(tree, draws, episodes).items():
                    runs[side].setdefault(key, []).extend(times)
    print()
    print(f"before: {label}")
    print(f"now:    this checkout ({head.stdout.strip()}, uncommitted changes included)")
    print(f"{rounds} alternating rounds, {draws} cold draws a screen each; {describe()}")
    print("best: the fastest draw (what drawing costs when nothing else runs); median: of all draws")
    print(
        f"{'ms per screenshot (draw + PNG)':32} {'best before':>11} {'now':>6} {'ratio':>6}   "
        f"{'median before':>13} {'now':>6} {'ratio':>6}"
    )
    best_ratios, median_ratios = [], []
    for key in APPS:
        if key not in runs["now"] or key not in runs["base"]:
            continue
        b0, b1 = min(runs["base"][key]), min(runs["now"][key])
        m0, m1 = statistics.median(runs["base"][key]), statistics.median(runs["now"][key])
        best_ratios.append(b1 / b0)
        median_ratios.append(m1 / m0)
        print(f"{key + ' first screen':32} {b0:11.1f} {b1:6.1f} {b1 / b0:5.2f}x   {m0:13.1f} {m1:6.1f} {m1 / m0:5.2f}x")
    print(
        f"{'geometric mean over the apps':32} {'':11} {'':6} {statistics.geometric_mean(best_ratios):5.2f}x   "
        f"{'':13} {'':6} {statistics.geometric_mean(median_ratios):5.2f}x"
    )
    if "harness step" in runs["now"] and "harness step" in runs["base"]:
        before, now = statistics.median(runs["base"]["harness step"]), statistics.median(runs["now"]["harness step"])
        steps = len(runs["now"]["harness step"])
        print(f"harness per step, median of {steps} steps: {before:.1f} ms before, {now:.1f} ms now", end="")
        print(f" ({now / before:.2f}x)")


def main() -> None:
    if sys.argv[1:2] == ["--measure"]:
        print(json.dumps(measure_tree(int(sys.argv[2]), int(sys.argv[3]))))
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", nargs="?", help="write the busy screen's PNG here")
    ap.add_argument("--baseline", default=BASELINE, help="the commit to compare with (default: before issue 28)")
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--draws", type=int, default=10, help="cold draws of each screen per round")
    ap.add_argument("--episodes", type=int, default=8, help="harness episodes per round (0: no harness figure)")
    args = ap.parse_args()
    busy_screen_figures(args.out)
    side_by_side(args.baseline, args.rounds, args.draws, args.episodes)


def busy_screen_figures(out: str | None) -> None:
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
    if out:
        with open(out, "wb") as f:
            f.write(renderer.png(frame_of(busy_screen()), "9:00"))


if __name__ == "__main__":
    main()
