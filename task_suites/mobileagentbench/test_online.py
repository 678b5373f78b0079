"""MobileAgentBench's six tasks on online apps (Google Maps, Amazon Shopping, CNN News).

They need the real apps and a network, so they are marked `online` and skipped with the
reason when the app is not on the device (always on virtual devices). No golden path is
declared: these apps change their screens with every release, so the oracle cannot replay
them; the bodies check what the screen must show once the task is done.
"""

from __future__ import annotations

from pytest_mobile_agent import task
from task_suites.shared.near_misses import not_applicable

MAPS = "com.google.android.apps.maps"
AMAZON = "com.amazon.mShop.android.shopping"
CNN = "com.cnn.mobile.android.phone"
# No golden path to vary: a near miss is a path, and these apps' screens change every release.
NO_PATH = "an online app with no golden path: no near miss can be written as a path"
UNWRITTEN = not_applicable(field=NO_PATH, multiset=NO_PATH, allowance=NO_PATH, lookalike=NO_PATH)


def texts(ui) -> str:
    return " ".join(ui.texts() + [n.desc for n in ui.nodes() if n.desc]).lower()


@UNWRITTEN
@task(prompt="navigate from Bellevue, WA to Redmond, WA", app=MAPS, golden_steps=6, online=True, name="maps_navigate")
def test_maps_navigate(ui):
    shown = texts(ui)
    assert "bellevue" in shown and "redmond" in shown and ("directions" in shown or "start" in shown)


@UNWRITTEN
@task(prompt="search Redmond, WA", app=MAPS, golden_steps=3, online=True, name="maps_search")
def test_maps_search(ui):
    assert "redmond, wa" in texts(ui) or "redmond, washington" in texts(ui)


@UNWRITTEN
@task(
    prompt="search nike and then show me shoes",
    app=AMAZON,
    golden_steps=5,
    online=True,
    name="amazon_search_nike_shoes",
)
def test_amazon_nike_shoes(ui):
    shown = texts(ui)
    assert "nike" in shown and "shoe" in shown


@UNWRITTEN
@task(prompt="show me the size guide for nike shoes", app=AMAZON, golden_steps=7, online=True, name="amazon_size_guide")
def test_amazon_size_guide(ui):
    assert "size guide" in texts(ui) or "size chart" in texts(ui)


@UNWRITTEN
@task(prompt="show news under the climate section", app=CNN, golden_steps=3, online=True, name="cnn_climate")
def test_cnn_climate(ui):
    assert "climate" in texts(ui)


@UNWRITTEN
@task(
    prompt="enable the CNN sound effect when opening the app",
    app=CNN,
    golden_steps=4,
    online=True,
    name="cnn_sound_effect",
)
def test_cnn_sound_effect(ui):
    switch = next((n for n in ui.nodes() if "sound" in (n.text + n.desc).lower() and n.checkable), None)
    assert switch is not None and switch.checked
