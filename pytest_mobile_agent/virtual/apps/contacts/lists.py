"""The contact row the lists share (Simple-Commons' item_contact_with_number.xml /
item_contact_without_number.xml as ContactsAdapter binds them): the main tabs and a group's
members."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pytest_mobile_agent.virtual.apps.contacts.store import display_name
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import App
from pytest_mobile_agent.virtual.ui.view import IMAGE, VIEW_GROUP, View


def contact_row(
    a: App, c: dict[str, Any], selected: bool, on_click: Callable[[], None], on_long_click: Callable[[], None]
) -> View:
    name = display_name(a, c)
    texts = [w.text(a.rid("item_contact_name"), name, size=16)]
    if a.pref("show_phone_numbers", False) and c["numbers"]:
        texts.append(w.text(a.rid("item_contact_number"), c["numbers"][0][0], size=14))
    row = [w.column(texts, weight=1, padding=4)]
    if a.pref("show_contact_thumbnails", True):
        # ContactsAdapter: no photo -> getContactLetterIcon, the name's first letter on a disc
        avatar = View(IMAGE, id=a.rid("item_contact_image"), kind="appicon", icon=name[:1].upper(), width=44, height=44)
        row.insert(0, avatar)
    return View(
        VIEW_GROUP,
        id=a.rid("item_contact_frame"),
        clickable=True,
        long_clickable=True,
        focusable=True,
        selected=selected,
        orientation="h",
        height=64,
        padding=8,
        kind="row",
        on_click=on_click,
        on_long_click=on_long_click,
        children=row,
    )
