"""A toolbar's menu and the search menu of the list apps (Simple-Commons MySearchMenu).

A menu's items become action icons and "More options" rows as appcompat's ActionMenuPresenter
splits them on a phone. Learned from commons views/MySearchMenu.kt and res/layout/menu_search.xml.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity
from pytest_mobile_agent.virtual.ui.view import IMAGE, RELATIVE, VIEW_GROUP, View

SEARCH_KEY = "top_toolbar_search"
APPBAR = "android.widget.LinearLayout"  # AppBarLayout reports its LinearLayout base class
MenuAction = tuple[str, str, str, Callable[[], None]]  # (id name, title, icon, action)


def menu_views(activity: Activity, actions: Sequence[MenuAction], overflow: Sequence[w.MenuItem]) -> list[View]:
    """A toolbar's action icons (Buttons whose content-desc is the title) and its overflow."""
    app = activity.app
    views = [w.icon_button(app.rid(rid), title, icon, action, cls=w.BUTTON) for rid, title, icon, action in actions]
    if overflow:
        views.append(
            w.icon_button(
                "", "More options", "more", lambda: activity.show(w.popup_menu(activity, overflow)), cls=IMAGE
            )
        )
    return views


def search_is_open(activity: Activity) -> bool:
    """MySearchMenu opens when its field takes the focus and stays open until closed."""
    return activity.focus == SEARCH_KEY or bool(activity.texts.get(SEARCH_KEY))


def close_search(activity: Activity) -> None:
    activity.texts[SEARCH_KEY] = ""
    if activity.focus == SEARCH_KEY:
        activity.focus = None
    activity.wm.ime_shown = False


def search_menu(
    activity: Activity,
    *,
    actions: Sequence[MenuAction] = (),
    overflow: Sequence[w.MenuItem] = (),
    hint: str = "Search",
    id: str = "main_menu",
) -> View:
    """MySearchMenu: search icon ("Search", "Back" while open), the query field, the toolbar."""
    app = activity.app
    opened = search_is_open(activity)

    def icon_tap() -> None:
        if search_is_open(activity):
            close_search(activity)
        else:
            w.focus(activity, SEARCH_KEY)

    icon = w.icon_button(
        app.rid("top_toolbar_search_icon"),
        "Back" if opened else "Search",
        "back" if opened else "search",
        icon_tap,
        cls=IMAGE,
    )
    field = w.edit(activity, SEARCH_KEY, hint=hint, weight=1, height=48)
    bar = View(VIEW_GROUP, id=app.rid("top_toolbar"), orientation="h", children=menu_views(activity, actions, overflow))
    bar.width = 48.0 * len(bar.children)
    holder = View(
        RELATIVE,
        id=app.rid("top_toolbar_holder"),
        orientation="h",
        height=48,
        children=[icon, field, bar],
        kind="search",
        padding=0,
    )
    layout = View(APPBAR, id=app.rid("top_app_bar_layout"), children=[holder], height=64, padding=8)
    return View(APPBAR, id=app.rid(id), children=[layout])


def split_menu(
    items: Sequence[tuple[str, str, str, Callable[[], None], str]], max_icons: int = 3
) -> tuple[list[MenuAction], list[w.MenuItem]]:
    """appcompat's ActionMenuPresenter on a phone: (id, title, icon, action, showAsAction) items,
    visible ones only, become toolbar icons or overflow rows. Up to `max_icons` slots; when some
    item overflows, one slot goes to "More options"; "always" items are icons regardless."""
    if len(items) <= max_icons and all(show != "never" for *_, show in items):
        return [i[:4] for i in items], []
    room = max_icons - 1 - sum(show == "always" for *_, show in items)
    icons, overflow = [], []
    for rid, title, icon, action, show in items:
        if show == "always" or (show == "ifRoom" and room > 0):
            room -= show == "ifRoom"
            icons.append((rid, title, icon, action))
        else:
            overflow.append((rid, title, action))
    return icons, overflow
