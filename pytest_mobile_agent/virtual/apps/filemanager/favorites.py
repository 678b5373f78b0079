"""Simple File Manager's favorites screen (FavoritesActivity, activity_favorites.xml)."""

from __future__ import annotations

from functools import partial

from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity
from pytest_mobile_agent.virtual.ui.view import IMAGE, RELATIVE, View


class FavoritesActivity(Activity):
    """Manage favorites: the favourite folders, each with a menu to remove it."""

    name = ".activities.FavoritesActivity"

    def menu(self, path: str) -> None:
        self.show(w.popup_menu(self, [("remove", "Remove", partial(self.remove, path))]))

    def remove(self, path: str) -> None:
        self.app.set_pref("favorites", [f for f in self.app.pref("favorites", []) if f != path])

    def content(self) -> View:
        a = self.app
        rows = [
            View(
                RELATIVE,
                id=a.rid("manage_favorite_holder"),
                orientation="h",
                kind="row",
                padding=8,
                children=[
                    w.text(a.rid("manage_favorite_title"), path, weight=1),
                    w.icon_button(
                        a.rid("overflow_menu_icon"),
                        "",
                        "more",
                        partial(self.menu, path),
                        cls=IMAGE,
                    ),
                ],
            )
            for path in sorted(a.pref("favorites", []))
        ]
        children = [w.scroll(a.rid("manage_favorites_list"), rows, cls="androidx.recyclerview.widget.RecyclerView")]
        if not rows:
            text = "You can add frequently used folders to favorites for easy access from anywhere."
            children = [
                w.text(a.rid("manage_favorites_placeholder"), text, padding=16, gravity="center"),
                w.text(
                    a.rid("manage_favorites_placeholder_2"),
                    "Add favorites",
                    padding=8,
                    gravity="center",
                    clickable=True,
                    on_click=lambda: None,
                ),
                *children,
            ]
        actions = [("add_favorite", "Add favorites", "add", lambda: None)]
        bar = w.toolbar(self, "manage_favorites_toolbar", "Favorites", actions=actions, back=True)
        holder = View(RELATIVE, id=a.rid("manage_favorites_holder"), weight=1, children=children)
        return w.screen(bar, [holder], id=a.rid("manage_favorites_coordinator"))
