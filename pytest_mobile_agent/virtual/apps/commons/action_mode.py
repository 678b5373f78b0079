"""The action mode over a list's selection, as commons' adapters set it up: "Done", "N / M",
the cab menu, and BACK ending the selection before the search.

Learned from commons adapters/MyRecyclerViewAdapter.kt and res/layout/actionbar_title.xml
(appcompat's action mode bar with its "Done" close button).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from pytest_mobile_agent.virtual.apps.commons.menus import (
    MenuAction,
    close_search,
    menu_views,
    search_is_open,
    split_menu,
)
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity
from pytest_mobile_agent.virtual.ui.view import IMAGE, VIEW_GROUP, View


class SelectionActivity(Activity):
    """A list screen with an action mode over `selected` and a search: BACK ends the selection
    first, else closes the search."""

    selected: list[Any]

    def end_selection(self) -> None:
        self.selected = []

    def on_back(self) -> bool:
        if self.selected:
            self.end_selection()
            return True
        if search_is_open(self):
            close_search(self)
            return True
        return False


def action_mode_bar(
    activity: Activity,
    selected: int,
    total: int,
    *,
    actions: Sequence[MenuAction],
    overflow: Sequence[w.MenuItem] = (),
    on_close: Callable[[], None],
    on_select_all: Callable[[], None],
) -> View:
    """appcompat's action mode bar as commons' adapters set it up: "Done", "N / M", the cab menu.
    Tapping the title selects all, or ends the mode when all are selected already."""
    app = activity.app
    close = w.icon_button(app.rid("action_mode_close_button"), "Done", "back", on_close, cls=IMAGE)
    title = w.text(
        app.rid("actionbar_title"),
        f"{selected} / {total}",
        size=20,
        clickable=True,
        weight=1,
        padding=12,
        on_click=on_close if selected >= total else on_select_all,
    )
    return View(
        VIEW_GROUP,
        id=app.rid("action_mode_bar"),
        orientation="h",
        height=64,
        kind="toolbar",
        color="dark",
        children=[close, title, *menu_views(activity, actions, overflow)],
    )


def selection_mode_bar(
    activity: Activity,
    selected: set,
    total: int,
    items: Sequence[tuple[str, str, str, Callable[[], None], str, bool]],
    on_select_all: Callable[[], None],
) -> View:
    """The action mode bar over a set of selected items: `items` are the cab menu's (id, title,
    icon, action, showAsAction, shown) entries, the shown ones split by split_menu; "Done"
    clears the selection."""
    actions, overflow = split_menu([i[:5] for i in items if i[5]])
    return action_mode_bar(
        activity,
        len(selected),
        total,
        actions=actions,
        overflow=overflow,
        on_close=selected.clear,
        on_select_all=on_select_all,
    )


def drag_select(items: Sequence[View], select: Callable[[list[str]], None]) -> None:
    """MyRecyclerView's drag-select over a list's item views (in adapter order, each keyed by
    its item): a long press on one that then drags to another selects every item between the
    two, both included (MyRecyclerViewAdapter.selectItemRange; the finger passes over each on
    its way). `select` adds the keys of that range to the selection."""
    order = [v.key for v in items]

    def dragged(initial: str, last: str) -> None:
        if last not in order:
            return  # dragged onto another list's item
        lo, hi = sorted((order.index(initial), order.index(last)))
        select(order[lo : hi + 1])

    for v in items:
        v.on_drag = partial(dragged, v.key)
