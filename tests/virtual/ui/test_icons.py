"""Icons come from the Material Icons font as the apps' drawables do; none falls back to a letter."""

from __future__ import annotations

import ast
import tempfile
from pathlib import Path

import pytest
from PIL import Image

from pytest_mobile_agent.virtual.apps import BUILTIN_APPS
from pytest_mobile_agent.virtual.boot import boot
from pytest_mobile_agent.virtual.core.config import DeviceConfig
from pytest_mobile_agent.virtual.ui import layout
from pytest_mobile_agent.virtual.ui.render.glyphs import GLYPHS, glyph_mask, glyph_name, material_codepoints
from pytest_mobile_agent.virtual.ui.render.renderer import ScreenRenderer
from pytest_mobile_agent.virtual.ui.screen import Frame, Window
from pytest_mobile_agent.virtual.ui.view import LINEAR, View

VIRTUAL = Path(__file__).resolve().parents[3] / "pytest_mobile_agent" / "virtual"
NAV_SHAPES = {"nav_back", "nav_home", "nav_recents"}  # the system bar's, not Material icons


def _literals(node: ast.expr) -> list[str]:
    """The strings an expression can be: a literal, or either branch of `a if c else b`."""
    if isinstance(node, ast.IfExp):
        return _literals(node.body) + _literals(node.orelse)
    return [node.value] if isinstance(node, ast.Constant) and isinstance(node.value, str) else []


def referenced_icons() -> set[str]:
    """Icon names written in the apps' and the UI's sources: `icon=` keywords, `icon = ...` class
    attributes, the icon argument of w.icon_button / w.image / Canvas.icon, and the icon of the
    (id, title, icon, action) menu tuples."""
    names: set[str] = set()
    for path in (*(VIRTUAL / "apps").rglob("*.py"), *(VIRTUAL / "ui").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            found: list[str] = []
            if isinstance(node, ast.Call):
                func = getattr(node.func, "attr", getattr(node.func, "id", ""))
                found += [n for k in node.keywords if k.arg == "icon" for n in _literals(k.value)]
                if func in ("icon_button", "image") and len(node.args) > 2:
                    found += _literals(node.args[2])
                if func == "icon" and node.args:
                    found += _literals(node.args[0])
            elif isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "icon" for t in node.targets):
                found += _literals(node.value)
            elif isinstance(node, ast.Tuple) and len(node.elts) in (4, 5):
                head = [_literals(e) for e in node.elts[:3]]
                if all(head) and isinstance(node.elts[3], (ast.Lambda, ast.Attribute)):
                    found += head[2]
            names.update(n for n in found if n)
    return names


def test_every_icon_the_apps_reference_is_a_material_glyph() -> None:
    names = referenced_icons()
    assert {"equalizer", "stop", "more", "search", "skip_next"} <= names  # the walk finds them
    codes = material_codepoints()
    for name in sorted(names):
        g = glyph_name(name)
        assert g is not None, f"{name!r} draws no icon"
        assert g in codes or g in NAV_SHAPES, f"{name!r} is not drawn from the Material font"
        assert glyph_mask(g, 24).getbbox() is not None, f"{name!r} draws nothing"
    assert set(GLYPHS) == NAV_SHAPES


def test_every_icon_on_every_activitys_first_screen_is_a_material_glyph() -> None:
    """The screens as the apps build them (each activity of each built-in app, fresh), beside
    the source walk above: no icon there falls back to a letter disc or "?"."""
    device = boot(Path(tempfile.mkdtemp()), DeviceConfig(serial="icons"))
    seen: dict[str, str] = {}
    for app_cls in BUILTIN_APPS:
        app = device.packages.app(app_cls.package)
        for cls in (app.main_activity, *app.activities):
            for v in cls(app, {}).content().walk():
                if v.icon and not (v.kind == "appicon" and len(v.icon) <= 2):  # a contact's initial
                    seen.setdefault(v.icon, f"{app_cls.package} {cls.__name__}")
    assert len(seen) > 30
    codes = material_codepoints()
    missing = {name: where for name, where in seen.items() if glyph_name(name) not in codes}
    assert not missing, f"icons not drawn from the Material font: {missing}"


def draw_icon(name: str) -> Image.Image:
    """A 48 dp toolbar icon through the screen renderer at 4x density (a 96 px glyph), cropped."""
    r = ScreenRenderer(480, 800, 4.0)
    icon = View(kind="icon", icon=name, width=48, height=48)
    root = View(LINEAR, children=[icon])
    layout.layout(root, (0, r.status_h, 480, 800 - r.nav_h), 4.0)
    img = r.image(Frame(1, [Window("activity", "p", "a", root)]), "9:00")
    x0, y0, x1, y1 = icon.bounds
    return img.crop((x0, y0, x1, y1)).convert("L")


@pytest.mark.parametrize("name", ["stop", "ic_stop_vector"])
def test_stop_is_a_filled_square_not_an_x(name: str) -> None:
    img = draw_icon(name)
    bg = img.getpixel((2, 2))
    ink = [(x, y) for y in range(img.height) for x in range(img.width) if abs(img.getpixel((x, y)) - bg) > 96]
    xs, ys = [x for x, _ in ink], [y for _, y in ink]
    w, h = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
    assert abs(w - h) <= 2 and w >= img.width // 5  # Material stop: 12 of its 24 units
    assert len(ink) >= 0.9 * w * h  # solid: an X or an outline covers far less of its box


def test_equalizer_is_bars_not_a_letter_disc() -> None:
    img = draw_icon("equalizer")
    bg = img.getpixel((2, 2))
    row = [abs(img.getpixel((x, img.height * 5 // 8)) - bg) > 96 for x in range(img.width)]  # bars end at 20/24
    runs = sum(1 for a, b in zip([False, *row], row) if b and not a)
    assert runs == 3  # Material's equalizer: three vertical bars


def test_the_renderer_tells_material_icons_from_fallbacks() -> None:
    """What benchmarks/fidelity.py counts: each icon asked for, drawn from the font, a hand-drawn
    bar shape, or fallen back to a letter."""
    r = ScreenRenderer(480, 800, 2.0)
    icons = [View(kind="icon", icon=name, width=48, height=48) for name in ("search", "no_such_icon_here")]
    root = View(LINEAR, orientation="h", children=icons)
    layout.layout(root, (0, r.status_h, 480, 800 - r.nav_h), 2.0)
    r.png(Frame(1, [Window("activity", "p", "a", root)]), "9:00")
    assert ("search", "material") in r.last_icons and ("no_such_icon_here", "fallback") in r.last_icons
    assert ("nav_home", "shape") in r.last_icons and ("battery", "material") in r.last_icons
