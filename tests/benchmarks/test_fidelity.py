"""benchmarks/fidelity.py's pure parts: the recipe file, matching OCR texts and their places, the
icon and id counts. Look-alike data written here: no store image is committed."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def load(name: str):
    spec = importlib.util.spec_from_file_location(f"benchmark_{name}", BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


fidelity = load("fidelity")

RECIPE = """
frame = [120, 420, 960, 1920]

[apps.calc]
repo = "Simple-Calculator"
package = "com.simplemobiletools.calculator"

[apps.gallery]
repo = "Simple-Gallery"
package = "com.simplemobiletools.gallery.pro"
frame = [125, 423, 955, 1920]

[[screen]]
app = "calc"
shot = "1_en-US"
layouts = ["activity_main", "commons:dialog_title"]
seed = ["contact Alan Smith|0126", "shell settings put system font_scale 1.0"]
steps = ["tap 6", "tap desc:Settings", "type Hello there", "swipe 1|2|3|4"]

[[screen]]
app = "gallery"
shot = "3_en-US"
layouts = []
"""


def test_recipes_parse_into_screens_with_their_app_and_lines():
    calc, gallery = fidelity.parse_recipes(RECIPE)
    assert calc.key == "calc/1_en-US" and calc.app.frame == (120, 420, 960, 1920)
    assert gallery.app.frame == (125, 423, 955, 1920) and gallery.layouts == () and gallery.steps == ()
    assert calc.layouts == ("activity_main", "commons:dialog_title")
    assert calc.seed == (("contact", ("Alan Smith", "0126")), ("shell", ("settings put system font_scale 1.0",)))
    assert calc.steps[:3] == (("tap", ("6",)), ("tap", ("desc:Settings",)), ("type", ("Hello there",)))
    assert calc.steps[3] == ("swipe", ("1", "2", "3", "4"))


@pytest.mark.parametrize(
    "broken, message",
    [
        (RECIPE.replace('steps = ["tap 6"', 'steps = ["poke 6"'), "unknown verb 'poke'"),
        (RECIPE.replace('app = "gallery"', 'app = "music"'), "screen 2 (music/3_en-US): no [apps.music] table"),
        (RECIPE.replace('shot = "3_en-US"\n', ""), "screen 2 (gallery/?): missing shot"),
        (RECIPE.replace('package = "com.simplemobiletools.calculator"', ""), "apps.calc: missing package"),
        (RECIPE.replace("frame = [125, 423, 955, 1920]", "frame = [125, 423]"), "apps.gallery: frame must be"),
        ("[[screen]\n", "not TOML"),
    ],
    ids=["verb", "app", "shot", "package", "frame", "toml"],
)
def test_a_broken_recipe_names_the_screen_and_the_field(broken, message):
    with pytest.raises(fidelity.RecipeError, match=re.escape(message)):
        fidelity.parse_recipes(broken)


def test_the_recipe_file_in_the_repository_parses():
    screens = fidelity.parse_recipes(fidelity.RECIPES.read_text())
    assert len({s.app.name for s in screens}) == 10
    assert len(screens) == len({s.key for s in screens}) >= 20


def test_texts_match_one_to_one_with_recall_both_ways_and_centre_distance():
    # The store crop is 840 px wide, the virtual one 1080: positions compare on a 1 x 1 screen.
    store = [
        ("Alan Smith", (70, 100, 210, 130)),  # centre (0.167, 0.115) of 840 x 1000
        ("Amelia Jones", (70, 200, 250, 230)),
        ("Bryan Davis", (70, 300, 230, 330)),
        ("12:30", (700, 5, 760, 20)),  # on the store side only
        ("A", (800, 100, 810, 110)),  # one letter: not compared
    ]
    virtual = [
        ("Alan Smlth", (90, 130, 270, 170)),  # OCR's misreading still matches (ratio 0.9)
        ("Amelia Jones", (90, 230, 320, 270)),
        ("Amelia Jones", (90, 900, 320, 940)),  # a second one: matched at most once
        ("Search", (200, 40, 400, 80)),
    ]
    t = fidelity.compare_texts(store, (840, 1000), virtual, (1080, 1000))
    assert (t.store, t.virtual) == (4, 4)
    assert [(a, b) for a, b, _ in t.pairs] == [("Amelia Jones", "Amelia Jones"), ("Alan Smith", "Alan Smlth")]
    assert t.recall_store == 0.5 and t.recall_virtual == 0.5
    # Alan: (140/840, 115/1000) against (180/1080, 150/1000): 0.035 apart, all of it vertical.
    alan = next(d for a, _, d in t.pairs if a == "Alan Smith")
    assert alan == pytest.approx(0.035, abs=1e-3)
    amelia = next(d for a, _, d in t.pairs if a == "Amelia Jones")
    assert amelia == pytest.approx(((160 / 840 - 205 / 1080) ** 2 + 0.035**2) ** 0.5, abs=1e-6)
    assert t.distance == pytest.approx((alan + amelia) / 2)


def test_no_texts_give_no_recall_rather_than_a_made_up_one():
    t = fidelity.compare_texts([], (1, 1), [("OK", (0, 0, 1, 1))], (1, 1))
    assert t.recall_store != t.recall_store and t.recall_virtual == 0 and t.distance != t.distance


def test_icons_count_material_against_fallbacks_without_bars_or_initials():
    icons = [("search", "material"), ("battery", "material"), ("nav_back", "shape"), ("A", "fallback")]
    icons += [("equaliser", "fallback"), ("more_vert", "material")]
    assert fidelity.icon_counts(icons) == (2, 1)


def test_layout_ids_and_the_dumps_ids():
    layout = """<LinearLayout xmlns:android="http://schemas.android.com/apk/res/android"
        android:id="@+id/main_holder"><TextView android:id="@+id/result" android:layout_below="@id/formula"/>
        <TextView
            android:id="@+id/placeholder"
            android:visibility="gone" />
        <ImageView android:visibility="invisible" android:id="@+id/check"/>
        <include layout="@layout/view_calculator"/></LinearLayout>"""
    assert fidelity.layout_ids(layout) == {"main_holder", "result"}  # gone and invisible views: not in a dump
    dump = '<node resource-id="com.example:id/result"/><node resource-id="other:id/main_holder"/>'
    assert fidelity.dump_ids(dump, "com.example") == {"result"}


def test_repositories_are_found_bare_or_cloned_in_a_folder(tmp_path):
    bare = tmp_path / "SimpleMobileTools+Simple-Notes" / "repo"
    (bare / "objects").mkdir(parents=True)
    (bare / "HEAD").write_text("ref: refs/heads/master\n")
    (tmp_path / "Simple-Calendar" / ".git").mkdir(parents=True)
    (tmp_path / "unrelated").mkdir()
    found = fidelity.find_repos([tmp_path])
    assert set(found) == {"Simple-Notes", "Simple-Calendar"}
    assert found["Simple-Notes"].path == bare
    assert set(fidelity.find_repos([bare])) == {"Simple-Notes"}


def test_the_tables_show_each_screen_and_why_one_was_not_reproduced():
    from datetime import UTC, datetime

    calc, gallery = fidelity.parse_recipes(RECIPE)
    texts = fidelity.TextComparison(4, 2, [("Alan Smith", "Alan Smith", 0.05)])
    done = fidelity.Result(
        calc, shot_date=datetime(2022, 9, 4, tzinfo=UTC), newer_layouts=["activity_main (2023-02-10)"]
    )
    done.texts, done.icons, done.ids = texts, (4, 1), (26, 27)
    failed = fidelity.Result(gallery, error="LookupError: nothing on screen with text 'Camera'")
    plain = "\n".join(fidelity.table([done, failed]))
    assert "calc/1_en-US" in plain and "25%" in plain and "50%" in plain and "0.050" in plain and "26/27" in plain
    assert "gallery/3_en-US            not reproduced: LookupError: nothing on screen with text 'Camera'" in plain
    assert "all (1 of 2)" in plain and "1 screens" in plain
    rows = fidelity.markdown([done, failed])[2:]
    assert rows[0].startswith("| calc/1_en-US | 2022-09-04 | 4 / 2 | 25% | 50% | 0.050 | 4 / 1 | 26 / 27 |")
    assert rows[1].startswith("| gallery/3_en-US | not reproduced: LookupError")
    assert rows[2] == "| **all (1 of 2)** | | 4 / 2 | 25% | 50% | 0.050 | 4 / 1 | 26 / 27 | 1 screens |"
