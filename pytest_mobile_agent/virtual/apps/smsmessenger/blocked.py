"""The blocked numbers and blocked keywords screens SMS Messenger's settings open.

Learned from Simple-SMS-Messenger's activity_manage_blocked_keywords.xml,
dialog_add_blocked_keyword.xml and Simple-Commons' ManageBlockedNumbersScreen.kt and
AddBlockedNumberDialog.kt (Jetpack Compose: texts and content-descs, no resource ids).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from pytest_mobile_agent.virtual.apps.commons.about import COMMONS, compose_top_bar
from pytest_mobile_agent.virtual.apps.smsmessenger.selection import SelectingActivity
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, Overlay
from pytest_mobile_agent.virtual.ui.view import BUTTON, CHECKBOX, FRAME, LINEAR, RECYCLER, RELATIVE, TEXT, VIEW, View


def compose_button(label: str, action: Callable[[], None]) -> View:
    """A Compose TextButton: a clickable Button node carrying its text, no id."""
    return View(
        BUTTON, text=label, clickable=True, focusable=True, on_click=action, kind="button", height=48, padding=8
    )


def compose_check(label: str, checked: bool, action: Callable[[], None]) -> View:
    return View(
        VIEW,
        clickable=True,
        focusable=True,
        kind="row",
        orientation="h",
        padding=8,
        on_click=action,
        children=[
            View(TEXT, text=label, weight=1),
            View(CHECKBOX, checkable=True, checked=checked, kind="checkbox", width=48, height=48),
        ],
    )


class ManageBlockedNumbersActivity(SelectingActivity):
    """commons' Compose screen; its top bar reads "Manage blocked numbers"."""

    name = f"{COMMONS}.ManageBlockedNumbersActivity"
    FIELD = "add_blocked_number"
    selected: list[str]

    def content(self) -> View:
        a = self.app
        numbers = self.app.blocked()
        if self.selected:
            icon = lambda desc, name, action: View(
                VIEW,
                desc=desc,
                clickable=True,
                on_click=action,
                icon=name,
                kind="icon",
                width=48,
                height=48,
            )
            top = View(
                VIEW,
                orientation="h",
                height=56,
                kind="toolbar",
                color="dark",
                children=[
                    icon("Back", "back", self.end_selection),
                    View(TEXT, text=f"{len(self.selected)} / {len(numbers)}", text_size=20, weight=1, padding=12),
                    icon("Copy", "copy", self.copy),
                    icon("Delete", "delete", self.delete),
                ],
            )
        else:
            top = compose_top_bar(self, "Manage blocked numbers")
            top.children += [
                View(
                    VIEW,
                    desc="Add a blocked number",
                    clickable=True,
                    on_click=lambda: self.edit(None),
                    icon="add",
                    kind="icon",
                    width=48,
                    height=48,
                ),
                View(
                    VIEW,
                    desc="More options",
                    clickable=True,
                    on_click=self.more,
                    icon="more",
                    kind="icon",
                    width=48,
                    height=48,
                ),
            ]
        flip = lambda pref: lambda: a.set_pref(pref, not a.pref(pref, False))
        rows: list[View] = [
            compose_check(
                "Block messages from not stored contacts", a.pref("block_unknown", False), flip("block_unknown")
            ),
            compose_check("Block messages from hidden numbers", a.pref("block_hidden", False), flip("block_hidden")),
        ]
        names = self.app.contact_names()
        if not numbers:
            rows += [
                View(TEXT, text="You are not blocking anyone.", padding=16),
                View(TEXT, text="Add a blocked number", clickable=True, on_click=lambda: self.edit(None), padding=8),
            ]
        for number in numbers:
            texts = [View(TEXT, text=number)]
            name = self.app.title_of(number, names)
            if name != number:
                texts.append(View(TEXT, text=name, text_size=14))
            rows.append(
                View(
                    VIEW,
                    clickable=True,
                    long_clickable=True,
                    focusable=True,
                    kind="row",
                    padding=12,
                    selected=number in self.selected,
                    children=texts,
                    on_click=partial(self.tap, number),
                    on_long_click=partial(self.toggle, number),
                )
            )
        return View(VIEW, children=[top, w.scroll("", rows, cls=VIEW)])

    def tap(self, number: str) -> None:
        if self.selected:
            self.toggle(number)
        else:
            self.edit(number)

    def toggle(self, number: str) -> None:
        if number in self.selected:
            self.selected.remove(number)
        else:
            self.selected.append(number)

    def end_selection(self) -> None:
        self.selected = []

    def copy(self) -> None:
        self.toast("Value copied to clipboard")
        self.end_selection()

    def delete(self) -> None:
        self.app.set_blocked([n for n in self.app.blocked() if n not in self.selected])
        self.end_selection()

    def more(self) -> None:
        items = (
            ("", "Import blocked numbers", lambda: self.toast("Importing…")),
            ("", "Export blocked numbers", lambda: self.toast("Exporting…")),
        )
        self.show(w.popup_menu(self, items))

    def edit(self, number: str | None) -> None:
        """AddBlockedNumberDialog: the "Number" field (focused), helper text, Cancel / OK."""
        self.texts[self.FIELD] = number or ""

        def close() -> None:
            self.dismiss(overlay)
            self.focus = None
            self.wm.ime_shown = False

        def ok() -> None:
            value = self.texts.get(self.FIELD, "").strip()
            close()
            if not value:
                return
            current = [n for n in self.app.blocked() if n != number]
            if value not in current:
                current.append(value)
            self.app.set_blocked(current)

        def build() -> View:
            field = w.edit(self, "", key=self.FIELD, hint="Number")
            helper = View(
                TEXT,
                text="Enter a number or a pattern (e.g. *12345*, +1*8888) to block all calls and "
                "messages from numbers matching the pattern.",
                text_size=12,
                padding=4,
            )
            buttons = View(
                VIEW,
                orientation="h",
                height=56,
                children=[View(weight=1), compose_button("Cancel", close), compose_button("OK", ok)],
            )
            return View(VIEW, padding=16, children=[field, helper, buttons])

        overlay = Overlay(build, title="", on_cancel=close)
        self.show(overlay)
        w.focus(self, self.FIELD)


class ManageBlockedKeywordsActivity(Activity):
    name = ".activities.ManageBlockedKeywordsActivity"
    FIELD = "add_blocked_keyword_edittext"

    def content(self) -> View:
        a = self.app
        keywords: list[str] = a.load("blocked_keywords", [])
        bar = w.toolbar(
            self,
            "block_keywords_toolbar",
            "Manage blocked keywords",
            back=True,
            actions=(("add_blocked_keyword", "Add a blocked keyword", "add", self.add),),
        )
        if keywords:
            rows = [
                View(
                    RELATIVE,
                    id=a.rid("manage_blocked_keyword_holder"),
                    kind="row",
                    padding=12,
                    children=[w.text(a.rid("manage_blocked_keyword_title"), k)],
                )
                for k in keywords
            ]
            body = [w.scroll(a.rid("manage_blocked_keywords_list"), rows, cls=RECYCLER)]
        else:
            body = [
                w.text(
                    a.rid("manage_blocked_keywords_placeholder"),
                    "You are not blocking any keywords. You may "
                    "add keywords here to block all messages containing them.",
                    padding=24,
                ),
                w.text(
                    a.rid("manage_blocked_keywords_placeholder_2"),
                    "Add a blocked keyword",
                    padding=8,
                    clickable=True,
                    on_click=self.add,
                ),
            ]
        wrapper = View(FRAME, id=a.rid("manage_blocked_keywords_wrapper"), weight=1, children=[w.column(body)])
        return w.screen(bar, [wrapper], id=a.rid("block_keywords_coordinator"))

    def add(self) -> None:
        a = self.app
        self.texts[self.FIELD] = ""

        def ok() -> None:
            self.focus = None
            value = self.texts.get(self.FIELD, "").strip()
            if value:
                a.save("blocked_keywords", [*a.load("blocked_keywords", []), value])

        def body() -> list[View]:
            field = w.edit(self, self.FIELD, hint="Keyword")
            hint = View(LINEAR, id=a.rid("add_blocked_keyword_hint"), children=[field])
            return [View(RELATIVE, id=a.rid("dialog_holder"), padding=8, children=[hint])]

        self.show(w.alert(self, "", body, positive=("OK", ok), negative=("Cancel", lambda: None)))
        w.focus(self, self.FIELD)
