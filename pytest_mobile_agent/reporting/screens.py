"""Report screens: each screen of an episode decoded once, drawn and encoded once, off the
step loop's path, and written once for both outputs.

With `--alluredir` or `--mobile-artifacts`, an `EpisodeScreens` follows each episode. As the
step loop records a step, the screen that step acted on goes to one background thread per
process, which decodes it, halves it and makes
- the frame: the screen with the step's action drawn, a 256-colour PNG (Allure's step screen),
  and its thumbnails (the description's filmstrip, the contact sheet);
- the screen as it was, a 256-colour PNG (the trajectory folder's step-NNN.png, for `--mobile-artifacts`).
A screen seen again (the same bytes, among the last 16) is not decoded, quantized or encoded again.
Pillow lets go of the GIL while it decodes, shrinks, quantizes and deflates, so this runs while
the harness waits for the device and the agent for its model. The final screen is the device's
own full-size PNG, never re-encoded. `finish` waits for what is left and draws the contact
sheet; the files are then written by the same thread while the next task starts: the trajectory
folder's copy first, then a hard link to it in the Allure results (a copy across file systems).

`--mobile-keep-screens=failed` keeps every step's screen for failed tasks only: a passing task
keeps its first and final screens, and nothing is drawn while an episode runs (only what is kept,
once the verdict is known).
"""

from __future__ import annotations

import os
import shutil
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from pytest_mobile_agent import drawing

KEEP_ALL, KEEP_FAILED = "all", "failed"
FILMSTRIP_WIDTH = 140  # the description's inline images
SCREENS_KEPT = 16  # screens kept decoded in the report thread (about 2.5 MB each)
KEY = pytest.StashKey["Screens"]()  # on the item, between the episode's record and its hooks

_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None
_pending: list[Future[Any]] = []
_errors: list[str] = []


def submit(fn: Callable[..., Any], *args: Any) -> Future[Any]:
    """Run `fn(*args)` in the process's report thread; one thread, so in the order submitted."""
    global _pool
    with _lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mobile-agent-reports")
        future = _pool.submit(fn, *args)
        _pending.append(future)
        if len(_pending) > 256:  # forget the finished ones, keep their errors
            _pending[:] = [f for f in _pending if not _settled(f)]
        return future


def _settled(future: Future[Any]) -> bool:
    if not future.done():
        return False
    error = future.exception()
    if error is not None:
        _errors.append(f"{type(error).__name__}: {error}")
    return True


def flush() -> list[str]:
    """Wait for every drawing and write submitted so far; the errors they met, once each."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=True)
    with _lock:
        for future in _pending:
            _settled(future)
        _pending.clear()
        errors = list(_errors)
        _errors.clear()
    return errors


# -- writing ---------------------------------------------------------------------------------
def write_later(path: Path, data: bytes | str) -> None:
    """Write `path` in the report thread (whole or not at all: through a temporary name)."""
    submit(_write, path, data.encode() if isinstance(data, str) else data)


def link_later(source: Path, path: Path) -> None:
    """`path` as a hard link to `source` (written earlier in the same thread), else a copy."""
    submit(_link, source, path)


def _write(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def _link(source: Path, path: Path) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.unlink(missing_ok=True)
    try:
        os.link(source, tmp)
    except OSError:  # another file system, or links not allowed
        shutil.copyfile(source, tmp)
    os.replace(tmp, path)


# -- drawing -----------------------------------------------------------------------------------
@dataclass
class Frame:
    """One step, drawn: the screen it acted on with its action."""

    index: int
    png: bytes | None  # 540 px, 256 colours, the action drawn (Allure's step screen)
    filmstrip: bytes | None  # a small JPEG for the description
    thumb: Image.Image  # for the contact sheet
    screen: bytes | None  # the screen as it was, 540 px, 256 colours (the trajectory folder)


@dataclass
class Screens:
    """What an episode's reports show, ready to write."""

    frames: list[Frame]  # the kept steps, in order
    final: bytes | None  # the device's PNG of the last screen, full size
    final_filmstrip: bytes | None
    sheet: bytes | None  # the contact sheet: every kept frame, then the final screen
    last_index: int  # the final screen's number in the trajectory folder: the number of steps
    files: dict[str, Path] = field(default_factory=dict)  # what the trajectory folder holds, to link to


def screen_before(episode: Any, index: int) -> tuple[bytes | None, str | None]:
    """The screen and hierarchy step `index` acted on: the initial ones, or those after the
    last earlier step that kept them."""
    png, xml = episode.initial_screenshot, episode.initial_hierarchy
    for step in episode.steps[: index - 1]:
        png, xml = step.screenshot or png, step.hierarchy or xml
    return png, xml


class Decoded:
    """A screen as the reports start from it: decoded and halved, then quantized and encoded
    when first asked. Nothing is drawn on it: frames draw on a copy."""

    def __init__(self, png: bytes | None) -> None:
        if png:
            self.image, self.full = drawing.scaled(png, drawing.REPORT_WIDTH)
        else:  # no screenshot kept: a black frame still carries the action's banner
            self.image = Image.new("RGB", (drawing.REPORT_WIDTH, drawing.REPORT_WIDTH * 2))
            self.full = self.image.size
        self._palette: Image.Image | None = None
        self._png: bytes | None = None

    @property
    def palette(self) -> Image.Image:
        """The screen in 256 colours (its action's frame is mapped onto the same palette)."""
        if self._palette is None:
            self._palette = drawing.quantized(self.image)
        return self._palette

    @property
    def png(self) -> bytes:
        """The screen as it was: 540 px, 256 colours (the trajectory folder's step screen)."""
        if self._png is None:
            self._png = drawing.encode_quantized(self.palette)
        return self._png


# The last screens decoded, by their bytes, in the report thread only. Agents often see a screen
# again (a tap that changed nothing, Back to a list): its decoding, shrinking, quantizing and
# encoding are done once.
_decoded: OrderedDict[bytes, Decoded] = OrderedDict()


def decoded(png: bytes | None) -> Decoded:
    if not png:
        return Decoded(None)
    screen = _decoded.get(png)
    if screen is not None:
        _decoded.move_to_end(png)
        return screen
    screen = _decoded[png] = Decoded(png)
    while len(_decoded) > SCREENS_KEPT:
        _decoded.popitem(last=False)
    return screen


def _frame(png: bytes | None, xml: str | None, step: Any, success_step: int | None, allure: bool, plain: bool) -> Frame:
    screen = decoded(png)
    drawn = drawing.step_frame(screen.image.copy(), screen.full, step, xml, success_step)
    thumb = drawing.shrink(drawn, drawing.THUMB_WIDTH)
    return Frame(
        step.index,
        drawing.encode_on(drawn, screen.palette) if allure else None,
        drawing.thumbnail_jpeg(thumb, FILMSTRIP_WIDTH) if allure else None,
        thumb,
        screen.png if plain and png else None,
    )


def _final(png: bytes, allure: bool) -> tuple[bytes | None, Image.Image]:
    image = drawing.caption_on(decoded(png).image.copy(), "final screen")
    thumb = drawing.shrink(image, drawing.THUMB_WIDTH)
    return (drawing.thumbnail_jpeg(thumb, FILMSTRIP_WIDTH) if allure else None), thumb


class EpisodeScreens:
    """The screens of one episode on their way to the reports."""

    def __init__(self, *, allure: bool, artifacts: bool, keep: str = KEEP_ALL) -> None:
        self.allure, self.artifacts, self.keep = allure, artifacts, keep
        self._frames: dict[int, Future[Frame]] = {}

    def step_done(self, episode: Any, step: Any) -> None:
        """The step loop recorded `step` (its verdict so far included): draw its frame now, in
        the background, unless the verdict decides whether it is kept."""
        if self.keep == KEEP_ALL:
            self._draw(episode, step)

    def _draw(self, episode: Any, step: Any) -> None:
        png, xml = screen_before(episode, step.index)
        self._frames[step.index] = submit(_frame, png, xml, step, episode.success_step, self.allure, self.artifacts)

    def finish(self, episode: Any) -> Screens:
        """Everything drawn, once the episode has its verdict."""
        every = self.keep == KEEP_ALL or not episode.success
        kept = [s for s in episode.steps if every or s.index == 1]
        for step in kept:
            if step.index not in self._frames:
                self._draw(episode, step)
        final_png = episode.final_screenshot
        final = submit(_final, final_png, self.allure) if final_png else None
        frames = [self._frames[s.index].result() for s in kept]
        filmstrip, thumb = final.result() if final is not None else (None, None)
        thumbs = [f.thumb for f in frames] + ([thumb] if thumb is not None else [])
        sheet = drawing.encode_palette(drawing.contact_sheet(thumbs)) if thumbs else None
        self._frames.clear()
        return Screens(frames, final_png, filmstrip, sheet, len(episode.steps))


def screens_of(item: pytest.Item) -> Screens | None:
    return item.stash.get(KEY, None)
