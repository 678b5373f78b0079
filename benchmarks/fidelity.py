"""How close the virtual device's screens are to the ten apps' store screenshots.

    python benchmarks/fidelity.py /work/.mirror [--out fidelity-sheets] [--only calculator ...] [--night]

Arguments: local clones of the apps' repositories (bare git directories, as `fetch` or
`git clone --bare` make, or ordinary clones), or folders holding them; a repository is known by
its name (Simple-Calculator, ...; Simple-Commons, when given, adds the layouts Simple-Commons
holds). Nothing of theirs is committed here.

Each screen of benchmarks/fidelity_screens.toml names a store screenshot
(fastlane/metadata/android/en-US/images/phoneScreenshots/, read from git), the data to seed and
the steps that reach the same screen on a virtual device (booted in this process, at the
screenshots' 1080x1920 at 420 dpi), and the layout files the screen is built from. Per screen:

- texts: what OCR (rapidocr-onnxruntime, the key-component judge's engine) reads in the phone
  part of the store image and in the virtual screenshot, below the status bar; a text counts as
  found when the other side has one alike (difflib ratio >= 0.8, case and spaces ignored), one to
  one. Recall both ways, and the median distance of matched texts' centres on the screen
  normalised to 1 x 1 (0: same place; 0.1: a tenth of the screen off);
- icons: the icons the renderer drew from the Material Icons font against those that fell back
  to a letter (contacts' initials, drawn as letters by the apps too, are left out);
- ids: the resource ids of the screen's layout files present in the `uiautomator dump` (those
  of views the files make gone or invisible left out: a dump does not show them either);
- ages: the screenshot's commit date against the last commit of each layout file; "changed"
  flags screens whose layout changed after the picture was taken (the picture shows an older
  version than today's sources).

The store images show the apps' dark theme; --night asks the device for it (`cmd uimode night
yes`), and a device that cannot reports so on every screen. Side-by-side sheets (store | virtual)
go to --out. A screen whose recipe fails (an app or a view
it names is missing) is reported with the reason, and the run goes on.
"""

from __future__ import annotations

import argparse
import difflib
import io
import re
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RECIPES = Path(__file__).with_name("fidelity_screens.toml")
SHOTS = "fastlane/metadata/android/en-US/images/phoneScreenshots/"
COMMONS = "Simple-Commons"
MATCH = 0.8  # difflib ratio for two OCR texts to be the same text
STEP_VERBS = {"tap", "long", "type", "key", "shell", "swipe", "back"}
SEED_VERBS = {"contact", "sms", "image", "file", "track", "shell"}


# -- recipes ------------------------------------------------------------------------------------


class RecipeError(ValueError):
    """A recipe file that cannot be run: the message names the screen and the field."""


@dataclass(frozen=True)
class App:
    name: str
    repo: str  # the repository's name: Simple-Calculator
    package: str
    frame: tuple[int, int, int, int]  # the phone's screen inside a store image: x0, y0, x1, y1


@dataclass(frozen=True)
class Screen:
    app: App
    shot: str  # the store image's file name without extension: 1_en-US
    title: str
    layouts: tuple[str, ...]  # layout file names, "commons:NAME" for Simple-Commons' own
    seed: tuple[tuple[str, tuple[str, ...]], ...] = ()
    steps: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @property
    def key(self) -> str:
        return f"{self.app.name}/{self.shot}"


def parse_line(line: str, verbs: set[str], where: str) -> tuple[str, tuple[str, ...]]:
    """'tap text:Settings' -> ('tap', ('text:Settings',)); fields after the verb split on '|'."""
    verb, _, rest = line.strip().partition(" ")
    if verb not in verbs:
        raise RecipeError(f"{where}: unknown verb {verb!r} in {line!r} (one of {', '.join(sorted(verbs))})")
    return verb, tuple(part.strip() for part in rest.split("|")) if rest.strip() else ()


def parse_recipes(text: str) -> list[Screen]:
    """The screens of a recipe file (TOML: [apps.NAME] tables, then [[screen]] entries)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RecipeError(f"the recipe file is not TOML: {exc}") from exc
    default_frame = data.get("frame", [120, 420, 960, 1920])
    apps: dict[str, App] = {}
    for name, spec in data.get("apps", {}).items():
        missing = {"repo", "package"} - set(spec)
        if missing:
            raise RecipeError(f"apps.{name}: missing {', '.join(sorted(missing))}")
        frame = spec.get("frame", default_frame)
        if len(frame) != 4 or not all(isinstance(v, int) for v in frame) or frame[2] <= frame[0]:
            raise RecipeError(f"apps.{name}: frame must be four pixel ints x0, y0, x1, y1, not {frame!r}")
        apps[name] = App(name, spec["repo"], spec["package"], tuple(frame))  # type: ignore[arg-type]
    screens = []
    for i, spec in enumerate(data.get("screen", [])):
        where = f"screen {i + 1} ({spec.get('app', '?')}/{spec.get('shot', '?')})"
        for key in ("app", "shot", "layouts"):
            if key not in spec:
                raise RecipeError(f"{where}: missing {key}")
        if spec["app"] not in apps:
            raise RecipeError(f"{where}: no [apps.{spec['app']}] table")
        screens.append(
            Screen(
                apps[spec["app"]],
                spec["shot"],
                spec.get("title", ""),
                tuple(spec["layouts"]),
                tuple(parse_line(s, SEED_VERBS, where) for s in spec.get("seed", [])),
                tuple(parse_line(s, STEP_VERBS, where) for s in spec.get("steps", [])),
            )
        )
    return screens


# -- comparing what OCR read --------------------------------------------------------------------

Box = tuple[float, float, float, float]


def norm_text(text: str) -> str:
    return re.sub(r"\s+", "", text).lower()


@dataclass
class TextComparison:
    store: int  # texts read in the store image
    virtual: int  # texts read in the virtual screenshot
    pairs: list[tuple[str, str, float]] = field(default_factory=list)  # store text, virtual text, centre distance

    @property
    def recall_store(self) -> float:
        """The share of the store image's texts the virtual screen shows."""
        return len(self.pairs) / self.store if self.store else float("nan")

    @property
    def recall_virtual(self) -> float:
        """The share of the virtual screen's texts the store image shows."""
        return len(self.pairs) / self.virtual if self.virtual else float("nan")

    @property
    def distance(self) -> float:
        """Median distance between matched texts' centres, the screen normalised to 1 x 1."""
        return statistics.median(d for _, _, d in self.pairs) if self.pairs else float("nan")


def centre(box: Box, size: tuple[float, float]) -> tuple[float, float]:
    return (box[0] + box[2]) / 2 / size[0], (box[1] + box[3]) / 2 / size[1]


def compare_texts(
    store: Sequence[tuple[str, Box]],
    store_size: tuple[float, float],
    virtual: Sequence[tuple[str, Box]],
    virtual_size: tuple[float, float],
) -> TextComparison:
    """Pairs texts alike on both sides, one to one, the most alike first (ties: the closest)."""
    store = [(t, b) for t, b in store if len(norm_text(t)) >= 2]
    virtual = [(t, b) for t, b in virtual if len(norm_text(t)) >= 2]
    candidates = []
    for i, (a, abox) in enumerate(store):
        for j, (b, bbox) in enumerate(virtual):
            ratio = difflib.SequenceMatcher(None, norm_text(a), norm_text(b)).ratio()
            if ratio >= MATCH:
                (ax, ay), (bx, by) = centre(abox, store_size), centre(bbox, virtual_size)
                candidates.append((-ratio, ((ax - bx) ** 2 + (ay - by) ** 2) ** 0.5, i, j))
    out = TextComparison(len(store), len(virtual))
    used_a: set[int] = set()
    used_b: set[int] = set()
    for _, dist, i, j in sorted(candidates):
        if i not in used_a and j not in used_b:
            used_a.add(i)
            used_b.add(j)
            out.pairs.append((store[i][0], virtual[j][0], dist))
    return out


def icon_counts(icons: Sequence[tuple[str, str]]) -> tuple[int, int]:
    """(drawn from the Material font, fallen back to a letter) of a screen's icons; the system
    bars' shapes and one- or two-letter names (a contact's initial: a letter in the app too) are
    not counted."""
    material = sum(1 for name, how in icons if how == "material" and name not in ("battery", "signal", "wifi"))
    fallback = sum(1 for name, how in icons if how == "fallback" and len(name.strip()) > 2)
    return material, fallback


def layout_ids(xml: str) -> set[str]:
    """The ids a layout file declares (android:id="@+id/NAME") on views it shows: a view the
    file makes gone or invisible is not in an Android dump either, until the app shows it."""
    ids = set()
    for attrs in re.findall(r"<[\w.]+\b([^>]*)>", xml):
        found = re.search(r'android:id="@\+id/([A-Za-z0-9_]+)"', attrs)
        if found and not re.search(r'android:visibility="(gone|invisible)"', attrs):
            ids.add(found.group(1))
    return ids


def dump_ids(xml: str, package: str) -> set[str]:
    return set(re.findall(rf'resource-id="{re.escape(package)}:id/([A-Za-z0-9_]+)"', xml))


# -- the apps' repositories ---------------------------------------------------------------------


class Repo:
    """A repository clone, bare or not, read through git (HEAD)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._files: list[str] | None = None

    def git(self, *args: str) -> bytes:
        return subprocess.run(["git", "-C", str(self.path), *args], capture_output=True, check=True).stdout

    def files(self) -> list[str]:
        if self._files is None:
            self._files = self.git("ls-tree", "-r", "HEAD", "--name-only").decode().splitlines()
        return self._files

    def show(self, path: str) -> bytes:
        return self.git("show", f"HEAD:{path}")

    def date(self, path: str) -> datetime | None:
        out = self.git("log", "-1", "--format=%cI", "HEAD", "--", path).decode().strip()
        return datetime.fromisoformat(out) if out else None

    def shot(self, name: str) -> str | None:
        return next((f for f in self.files() if f.startswith(SHOTS) and Path(f).stem == name), None)

    def layout(self, name: str) -> str | None:
        return next((f for f in self.files() if f.endswith(f"/res/layout/{name}.xml")), None)


def find_repos(paths: Sequence[Path]) -> dict[str, Repo]:
    """Repository name -> Repo, from clones or the folders holding them (a bare dir fetched as
    owner+name/repo counts as name)."""
    found: dict[str, Repo] = {}

    def is_git(p: Path) -> bool:
        return (p / "HEAD").is_file() and (p / "objects").is_dir() or (p / ".git").exists()

    def name_of(p: Path) -> str:
        name = p.parent.name if p.name in ("repo", ".git") else p.name
        return name.split("+")[-1].removesuffix(".git")

    for path in paths:
        if is_git(path):
            found[name_of(path)] = Repo(path)
            continue
        for child in sorted(path.iterdir()) if path.is_dir() else []:
            for candidate in (child, child / "repo"):
                if candidate.is_dir() and is_git(candidate):
                    found.setdefault(name_of(candidate), Repo(candidate))
    return found


# -- the virtual device, in this process --------------------------------------------------------


class VirtualPhone:
    """A freshly booted virtual device driven in process: its own shell, taps by what the dump
    shows, its renderer's record of the icons it drew."""

    def __init__(self, display: str = "1080x1920", density: int = 420, night: bool = False) -> None:
        from pytest_mobile_agent.virtual.boot import boot
        from pytest_mobile_agent.virtual.core.config import DeviceConfig

        self.device = boot(Path(tempfile.mkdtemp(prefix="fidelity-")), DeviceConfig(serial="fidelity"))
        self.pushed = 0
        self.sh(f"wm size {display}")
        self.sh(f"wm density {density}")
        if night:
            self.sh("cmd uimode night yes")

    def sh(self, command: str, check: bool = True) -> str:
        from pytest_mobile_agent.virtual.shell import run_script
        from pytest_mobile_agent.virtual.shell.api import BufferOutput, Input

        out, err = BufferOutput(), BufferOutput()
        status = run_script(self.device, command, Input(closed=True), out, err)
        if check and status != 0:
            raise RuntimeError(f"`{command}` exited {status}: {(out.data + err.data).decode().strip()[-200:]}")
        return out.data.decode()

    def push(self, data: bytes, path: str, mtime: int = 0) -> None:
        """A file as `adb push` leaves it; each one a minute older than the one before (unless
        `mtime` says), so lists sorted by date come out in the recipe's order on every run."""
        import os

        self.device.fs.write(path, data)
        self.pushed += 1
        stamp = mtime or int(self.device.clock.now().timestamp()) - 60 * self.pushed
        os.utime(self.device.fs.host(path), (stamp, stamp))

    def dump(self) -> str:
        return self.device.dump()

    def find(self, selector: str) -> tuple[int, int]:
        """The centre of the first view the dump shows for text:T, id:NAME or desc:D (plain: text)."""
        from pytest_mobile_agent.device.ui_tree import UiTree

        how, _, value = selector.partition(":") if selector.split(":", 1)[0] in ("text", "id", "desc") else ("", "", "")
        how, value = (how, value) if how else ("text", selector)
        tree = UiTree(self.dump())
        for node in tree.nodes():
            got = {"text": node.text, "desc": node.desc, "id": node.id.rsplit("/", 1)[-1]}[how]
            if got == value and node.bounds[2] > node.bounds[0]:
                return node.center
        raise LookupError(f"nothing on screen with {how} {value!r}")

    def screenshot(self) -> tuple[bytes, list[tuple[str, str]]]:
        """The screen as `screencap -p` gives it, by the device's own renderer (so whatever the
        device is set to draw, it draws), and the icons of that picture."""
        dev = self.device
        with dev.lock:
            renderer = dev.renderer
            drawn = renderer.renders
            png = dev.screen_png()
            if renderer.renders == drawn:  # served from its cache: drawn again for the icons
                renderer._draw(dev.wm.frame(), dev.status_time())
            return png, renderer.last_icons

    def close(self) -> None:
        self.device.shutdown()


def picture(seed: str, size: tuple[int, int] = (96, 96)) -> bytes:
    """A small picture of our own, JPEG or PNG as the name says: two colour bands from the name,
    so media have pixels to draw."""
    import zlib

    from PIL import Image, ImageDraw

    h = zlib.crc32(seed.encode())
    a, b = (h & 0xFF, (h >> 8) & 0xFF, (h >> 16) & 0xFF), ((h >> 4) & 0xFF, (h >> 12) & 0xFF, (h >> 20) & 0xFF)
    image = Image.new("RGB", size, a)
    ImageDraw.Draw(image).rectangle((0, size[1] * 3 // 5, size[0], size[1]), fill=b)
    buf = io.BytesIO()
    image.save(buf, "JPEG" if seed.lower().endswith((".jpg", ".jpeg")) else "PNG")
    return buf.getvalue()


def seed(phone: VirtualPhone, verb: str, args: tuple[str, ...]) -> None:
    """One seed line: contact NAME|NUMBER[|EMAIL], sms sent|inbox|NUMBER|BODY, image PATH,
    file PATH|BYTES, track PATH|TITLE|ARTIST|ALBUM|YEAR, shell COMMAND (the suites' helpers)."""
    from task_suites.shared import seeds

    if verb == "contact":
        seeds.add_contact(phone, args[0], args[1], args[2] if len(args) > 2 else "")
    elif verb == "sms":
        seeds.add_sms(phone, args[0], args[1], args[2])
    elif verb == "image":
        phone.push(picture(args[0]), args[0])
    elif verb == "file":
        phone.push(b"x" * int(args[1] if len(args) > 1 else 100), args[0])
    elif verb == "track":
        phone.push(seeds.tagged_mp3(args[1], args[2], args[3], int(args[4])), args[0])
    elif verb == "shell":
        phone.sh(args[0])


def step(phone: VirtualPhone, verb: str, args: tuple[str, ...]) -> None:
    """One step: tap SELECTOR, long SELECTOR, type TEXT, key NAME, back, swipe X1|Y1|X2|Y2, shell CMD."""
    if verb in ("tap", "long"):
        x, y = phone.find(args[0])
        phone.sh(f"input tap {x} {y}" if verb == "tap" else f"input swipe {x} {y} {x} {y} 700")
    elif verb == "type":
        phone.sh("input text " + "'" + args[0].replace("'", "'\\''").replace(" ", "%s") + "'")
    elif verb == "key":
        phone.sh(f"input keyevent {args[0]}")
    elif verb == "back":
        phone.sh("input keyevent BACK")
    elif verb == "swipe":
        phone.sh("input swipe " + " ".join(args) + " 300")
    elif verb == "shell":
        phone.sh(args[0])


# -- one screen ---------------------------------------------------------------------------------


@dataclass
class Result:
    screen: Screen
    error: str = ""
    shot_date: datetime | None = None
    newer_layouts: list[str] = field(default_factory=list)  # changed after the screenshot
    texts: TextComparison | None = None
    icons: tuple[int, int] = (0, 0)
    ids: tuple[int, int] = (0, 0)  # present in the dump, declared by the layouts
    missing_ids: list[str] = field(default_factory=list)


def run_screen(
    screen: Screen,
    repos: dict[str, Repo],
    ocr: Callable[[bytes], list[tuple[str, Box]]],
    out: Path | None,
    night: bool = False,
) -> Result:
    from PIL import Image

    result = Result(screen)
    repo = repos.get(screen.app.repo)
    if repo is None:
        result.error = f"no clone of {screen.app.repo} given"
        return result
    shot = repo.shot(screen.shot)
    if shot is None:
        result.error = f"{screen.app.repo} has no store image {screen.shot}"
        return result
    result.shot_date = repo.date(shot)
    declared: set[str] = set()
    for name in screen.layouts:
        source = repos.get(COMMONS) if name.startswith("commons:") else repo
        name = name.removeprefix("commons:")
        path = source.layout(name) if source else None
        if source is None or path is None:
            result.error = f"layout {name} not found" + ("" if source else f" (no {COMMONS} clone given)")
            return result
        declared |= layout_ids(source.show(path).decode())
        changed = source.date(path)
        if changed and result.shot_date and changed > result.shot_date:
            result.newer_layouts.append(f"{name} ({changed:%Y-%m-%d})")

    try:
        phone = VirtualPhone(night=night)
    except RuntimeError as exc:
        result.error = str(exc)
        return result
    try:
        for verb, args in screen.seed:
            seed(phone, verb, args)
        phone.sh(f"monkey -p {screen.app.package} 1")
        for verb, args in screen.steps:
            step(phone, verb, args)
        time.sleep(0)  # every command above has finished: the device model is synchronous
        png, icons = phone.screenshot()
        xml = phone.dump()
    except Exception as exc:  # noqa: BLE001 - a recipe that fails is reported, the run goes on
        result.error = f"{type(exc).__name__}: {exc}"
        return result
    finally:
        phone.close()
    result.icons = icon_counts(icons)
    present = dump_ids(xml, screen.app.package)
    result.ids = (len(declared & present), len(declared))
    result.missing_ids = sorted(declared - present)

    # The store image shows the phone's screen scaled into `frame`, cut at the image's bottom.
    store_image = Image.open(io.BytesIO(repo.show(shot))).convert("RGB")
    virtual_image = Image.open(io.BytesIO(png)).convert("RGB")
    x0, y0, x1, y1 = screen.app.frame
    y1 = min(y1, store_image.height)
    scale = (x1 - x0) / virtual_image.width
    status = round(24 * 420 / 160)  # the status bar: its clock and icons differ by design
    shown = min(virtual_image.height, round((y1 - y0) / scale))
    store_crop = store_image.crop((x0, y0 + round(status * scale), x1, y1))
    virtual_crop = virtual_image.crop((0, status, virtual_image.width, shown))
    result.texts = compare_texts(ocr(_png(store_crop)), store_crop.size, ocr(_png(virtual_crop)), virtual_crop.size)
    if out is not None:
        sheet = Image.new("RGB", (virtual_crop.width * 2 + 20, virtual_crop.height), (255, 255, 255))
        sheet.paste(store_crop.resize(virtual_crop.size), (0, 0))
        sheet.paste(virtual_crop, (virtual_crop.width + 20, 0))
        sheet.save(out / f"{screen.app.name}-{screen.shot}.png")
    return result


def _png(image: Any) -> bytes:
    buf = io.BytesIO()
    image.save(buf, "PNG")
    return buf.getvalue()


# -- the table ----------------------------------------------------------------------------------


def pct(v: float) -> str:
    return "-" if v != v else f"{v:.0%}"


def table(results: Sequence[Result]) -> list[str]:
    head = (
        f"{'screen':26} {'shot':10} {'texts s/v':>9} {'found s>v':>9} {'found v>s':>9} {'centre d':>8} "
        f"{'icons M/fb':>10} {'ids':>7}  layout newer than the shot"
    )
    lines = [head, "-" * len(head)]
    for r in results:
        s = r.screen
        if r.error:
            lines.append(f"{s.key:26} not reproduced: {r.error}")
            continue
        t = r.texts
        assert t is not None
        dist = "-" if t.distance != t.distance else f"{t.distance:.3f}"
        lines.append(
            f"{s.key:26} {r.shot_date:%Y-%m-%d} {f'{t.store}/{t.virtual}':>9} {pct(t.recall_store):>9} "
            f"{pct(t.recall_virtual):>9} {dist:>8} {f'{r.icons[0]}/{r.icons[1]}':>10} "
            f"{f'{r.ids[0]}/{r.ids[1]}':>7}  {', '.join(r.newer_layouts) or 'no'}"
        )
    total = totals(results)
    if total:
        lines.append("-" * len(head))
        lines.append(
            f"{total['screens']:26} {'':10} {total['texts']:>9} {total['store']:>9} {total['virtual']:>9} "
            f"{total['distance']:>8} {total['icons'].replace(' ', ''):>10} {total['ids'].replace(' ', ''):>7}  "
            f"{total['newer']}"
        )
    return lines


def totals(results: Sequence[Result]) -> dict[str, str] | None:
    """The figures over every reproduced screen: texts and matches pooled, the median distance
    of all matched texts."""
    done = [r for r in results if not r.error and r.texts is not None]
    if not done:
        return None
    store = sum(r.texts.store for r in done if r.texts)
    virtual = sum(r.texts.virtual for r in done if r.texts)
    pairs = [p for r in done if r.texts for p in r.texts.pairs]
    dist = statistics.median(d for _, _, d in pairs) if pairs else float("nan")
    return {
        "screens": f"all ({len(done)} of {len(results)})",
        "texts": f"{store}/{virtual}",
        "store": pct(len(pairs) / store if store else float("nan")),
        "virtual": pct(len(pairs) / virtual if virtual else float("nan")),
        "distance": "-" if dist != dist else f"{dist:.3f}",
        "icons": f"{sum(r.icons[0] for r in done)} / {sum(r.icons[1] for r in done)}",
        "ids": f"{sum(r.ids[0] for r in done)} / {sum(r.ids[1] for r in done)}",
        "newer": f"{sum(1 for r in done if r.newer_layouts)} screens",
    }


def markdown(results: Sequence[Result]) -> list[str]:
    """The table as Markdown, for the docs' fidelity page."""
    lines = [
        "| screen | shot taken | texts store / virtual | store's found | virtual's found | centre distance "
        "| icons Material / fallback | layout ids in the dump | layouts changed since the shot |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        if r.error or r.texts is None:
            lines.append(f"| {r.screen.key} | not reproduced: {r.error} |  |  |  |  |  |  |  |")
            continue
        t = r.texts
        dist = "-" if t.distance != t.distance else f"{t.distance:.3f}"
        lines.append(
            f"| {r.screen.key} | {r.shot_date:%Y-%m-%d} | {t.store} / {t.virtual} | {pct(t.recall_store)} "
            f"| {pct(t.recall_virtual)} | {dist} | {r.icons[0]} / {r.icons[1]} | {r.ids[0]} / {r.ids[1]} "
            f"| {', '.join(r.newer_layouts) or 'none'} |"
        )
    total = totals(results)
    if total:
        lines.append(
            f"| **{total['screens']}** | | {total['texts'].replace('/', ' / ')} | {total['store']} "
            f"| {total['virtual']} | {total['distance']} | {total['icons']} | {total['ids']} | {total['newer']} |"
        )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repos", nargs="+", type=Path, help="clones (bare or not) or folders holding them")
    parser.add_argument("--out", type=Path, default=Path("fidelity-sheets"), help="where the sheets go")
    parser.add_argument("--recipes", type=Path, default=RECIPES)
    parser.add_argument("--only", nargs="*", default=[], help="apps or app/shot keys to run")
    parser.add_argument("--missing", action="store_true", help="list each screen's layout ids the dump lacks")
    parser.add_argument("--night", action="store_true", help="dark theme (cmd uimode night yes), as the store images")
    parser.add_argument("--markdown", action="store_true", help="also print the table as Markdown")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))  # task_suites' seed helpers
    from pytest_mobile_agent.judges.ocr import recognize_boxes

    screens = parse_recipes(args.recipes.read_text(encoding="utf-8"))
    if args.only:
        screens = [s for s in screens if s.app.name in args.only or s.key in args.only]
    screens.sort(key=lambda s: s.key)
    repos = find_repos(args.repos)
    args.out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    results = []
    for screen in screens:
        results.append(run_screen(screen, repos, recognize_boxes, args.out, args.night))
        print(f"  {screen.key}: {'done' if not results[-1].error else results[-1].error}", file=sys.stderr)
    print(
        f"{len(screens)} screens of {len({s.app.name for s in screens})} apps, store images against the virtual "
        f"device at 1080x1920@420{' in night mode' if args.night else ''} ({time.perf_counter() - started:.0f} s); "
        f"sheets in {args.out}/"
    )
    print("texts s/v: read by OCR in the store image / the virtual screenshot; found: matched on the other side;")
    print("centre d: median distance of matched texts (screen = 1 x 1); icons: Material font / letter fallback;")
    print("ids: the layout files' ids present in the dump")
    for line in table(results):
        print(line)
    if args.markdown:
        print()
        for line in markdown(results):
            print(line)
    if args.missing:
        for r in results:
            if r.missing_ids:
                print(f"{r.screen.key} ids not in the dump: {', '.join(r.missing_ids)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
