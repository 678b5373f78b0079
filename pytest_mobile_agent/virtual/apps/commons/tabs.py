"""The bottom tabs of the tabbed list apps (commons res/layout/bottom_tablayout_item.xml)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity
from pytest_mobile_agent.virtual.ui.view import LINEAR, View


def bottom_tabs(
    activity: Activity, tabs: Sequence[tuple[str, str]], current: int, on_pick: Callable[[int], None]
) -> View:
    """The bottom TabLayout `main_tabs_holder`; each tab's custom view is bottom_tablayout_item."""
    app = activity.app
    views = [
        View(
            "androidx.appcompat.app.ActionBar$Tab",
            clickable=True,
            focusable=True,
            selected=i == current,
            weight=1,
            on_click=partial(on_pick, i),
            kind="tab",
            children=[
                View(
                    LINEAR,
                    id=app.rid("tab_item_holder"),
                    gravity="center",
                    children=[
                        w.image(app.rid("tab_item_icon"), "", icon, height=24),
                        # maxLines 1 without android:ellipsize: a label too wide is cut where
                        # it wraps, with no "…".
                        w.text(
                            app.rid("tab_item_label"), label, size=14, gravity="center", bold=i == current, ellipsize=""
                        ),
                    ],
                ),
            ],
        )
        for i, (label, icon) in enumerate(tabs)
    ]
    return View(
        "android.widget.HorizontalScrollView",
        id=app.rid("main_tabs_holder"),
        height=64,
        children=[View(LINEAR, orientation="h", children=views)],
    )
