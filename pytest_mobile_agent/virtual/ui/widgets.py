"""Building blocks apps compose screens from, with the classes and ids Android gives them.

Toolbars (MaterialToolbar reports android.view.ViewGroup; action items are Buttons whose
content-desc is the item title; the overflow is an ImageView "More options"), popup menus
(rows with `PKG:id/title`), AlertDialogs (`PKG:id/alertTitle`, `android:id/button1..3`),
radio-group dialogs, settings rows and text fields bound to an activity's state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from pytest_mobile_agent.virtual.ui.app import Activity, Overlay
from pytest_mobile_agent.virtual.ui.view import (
    BUTTON,
    CHECKBOX,
    EDIT,
    FRAME,
    IMAGE,
    IMAGE_BUTTON,
    LINEAR,
    RADIO,
    RADIO_GROUP,
    RELATIVE,
    SCROLL,
    TEXT,
    VIEW_GROUP,
    Media,
    View,
)

Action = Callable[[], None]
VIEW_PAGER = "androidx.viewpager.widget.ViewPager"
MenuItem = tuple[str, str, Action]  # (id name, title, action)
PRIMARY = "#f57c00"
ANY_LINES = 1_000  # a message TextView without android:maxLines wraps onto as many lines as it needs


def text(id: str = "", value: str = "", *, size: float = 16, **kw) -> View:
    return View(TEXT, id=id, text=value, text_size=size, kind=kw.pop("kind", "text"), **kw)


def button(id: str, label: str, action: Action | None, **kw) -> View:
    return View(BUTTON, id=id, text=label, clickable=True, focusable=True, on_click=action, kind="button", **kw)


def icon_button(
    id: str, desc: str, icon: str, action: Action | None, cls: str = IMAGE_BUTTON, *, size: float = 48, **kw
) -> View:
    return View(
        cls,
        id=id,
        desc=desc,
        icon=icon,
        clickable=True,
        focusable=True,
        on_click=action,
        kind=kw.pop("kind", "icon"),
        width=size,
        height=size,
        **kw,
    )


def _compound_button(cls: str, kind: str, id: str, label: str, checked: bool, action: Action | None, kw) -> View:
    """A RadioButton or CheckBox row as dialogs show them; `kw` overrides the usual layout and flags."""
    attrs = {"clickable": True, "focusable": True, "height": 48, "padding": 8, **kw}
    return View(cls, id=id, text=label, checkable=True, checked=checked, on_click=action, kind=kind, **attrs)


def radio(id: str, label: str, checked: bool, action: Action | None, **kw) -> View:
    """A RadioButton: 48 dp tall, padded 8, clickable and focusable unless `kw` says otherwise."""
    return _compound_button(RADIO, "radio", id, label, checked, action, kw)


def checkbox(id: str, label: str, checked: bool, action: Action | None, **kw) -> View:
    """A CheckBox: 48 dp tall, padded 8, clickable and focusable unless `kw` says otherwise."""
    return _compound_button(CHECKBOX, "checkbox", id, label, checked, action, kw)


def toolbar(
    activity: Activity,
    id: str,
    title: str = "",
    *,
    actions: Sequence[tuple[str, str, str, Action]] = (),
    overflow: Sequence[MenuItem] = (),
    back: bool = False,
) -> View:
    """A MaterialToolbar: optional back arrow, title, action icons, optional overflow menu."""
    app = activity.app
    children: list[View] = []
    if back:
        children.append(icon_button("", "Back", "back", activity.finish))
    children.append(text("", title, size=20, bold=True, weight=1, padding=12, color=PRIMARY))
    for rid, desc, icon, action in actions:
        children.append(icon_button(app.rid(rid), desc, icon, action, cls=BUTTON))
    if overflow:
        children.append(
            icon_button("", "More options", "more", lambda: activity.show(popup_menu(activity, overflow)), cls=IMAGE)
        )
    return View(
        VIEW_GROUP, id=app.rid(id), orientation="h", height=56, children=children, kind="toolbar", color=PRIMARY
    )


def popup_menu(activity: Activity, items: Sequence[MenuItem], *, title_id: str = ""):
    """`title_id`: the rows' title id; the framework's PopupMenu uses `android:id/title`."""

    def pick(action: Action) -> Action:
        def run() -> None:
            activity.dismiss(overlay)
            action()

        return run

    def build() -> View:
        rows = [
            View(
                LINEAR,
                clickable=True,
                focusable=True,
                on_click=pick(action),
                height=48,
                padding=4,
                kind="row",
                children=[text(title_id or activity.app.rid("title"), title, padding=8)],
            )
            for _, title, action in items
        ]
        return View("android.widget.ListView", children=rows)

    overlay = Overlay(build, kind="menu", title="PopupWindow")
    return overlay


def alert(
    activity: Activity,
    title: str,
    body: Sequence[View] | Callable[[], Sequence[View]] = (),
    *,
    positive: tuple[str, Action] | None = None,
    negative: tuple[str, Action] | None = None,
    neutral: tuple[str, Action] | None = None,
    message: str = "",
    cancelable: bool = True,
):
    """An AlertDialog; each button closes it, then runs its action. A callable `body` is called
    each time the dialog is drawn (its views follow the state)."""
    pkg = activity.app

    def closing(action: Action) -> Action:
        def run() -> None:
            activity.dismiss(overlay)
            action()

        return run

    def build() -> View:
        children: list[View] = []
        if title:
            children.append(text(pkg.rid("alertTitle"), title, size=20, bold=True, padding=12))
        if message:
            children.append(text("android:id/message", message, padding=12, max_lines=ANY_LINES))
        children.extend(body() if callable(body) else body)
        buttons = [
            button(f"android:id/{rid}", label, closing(action), width=96, height=48)
            for rid, spec in (("button3", neutral), ("button2", negative), ("button1", positive))
            if spec
            for label, action in [spec]
        ]
        if buttons:
            children.append(
                View(LINEAR, orientation="h", height=56, gravity="end", children=[View(weight=1), *buttons], padding=4)
            )
        # weight: a dialog taller than the screen keeps its buttons; a weighted body (a scroll) shrinks
        return View(LINEAR, id=pkg.rid("parentPanel"), children=children, padding=8, weight=1)

    overlay = Overlay(build, title=title or "AlertDialog", cancelable=cancelable)
    return overlay


def radio_group(
    activity: Activity, options: Sequence[str], checked: int, on_pick: Callable[[int], None], *, ids: bool = False
) -> View:
    """A RadioGroup in a ScrollView, as commons' dialog_radio_group (rows have no ids)."""
    app = activity.app
    rows = [
        radio(app.rid(f"radio_{i}") if ids else "", label, i == checked, partial(on_pick, i))
        for i, label in enumerate(options)
    ]
    group = View(RADIO_GROUP, id=app.rid("dialog_radio_group"), children=rows)
    return View(SCROLL, id=app.rid("dialog_radio_holder"), children=[group])


def radio_dialog(
    activity: Activity, options: Sequence[str], checked: int, on_pick: Callable[[int], None], title: str = ""
):
    """commons' RadioGroupDialog: tapping a row applies it and closes the dialog."""
    holder: list = []

    def pick(i: int) -> None:
        activity.dismiss(holder[0])
        on_pick(i)

    dialog = alert(activity, title, lambda: [radio_group(activity, options, checked, pick)])
    holder.append(dialog)
    return dialog


def edit(
    activity: Activity,
    id: str,
    *,
    key: str = "",
    hint: str = "",
    on_change: Callable[[str], None] | None = None,
    on_submit: Action | None = None,
    password: bool = False,
    **kw,
) -> View:
    """An EditText whose content lives in `activity.texts[key]`, surviving rebuilds."""
    key = key or id
    value = activity.texts.get(key, "")

    def changed(new: str) -> None:
        activity.texts[key] = new
        if on_change:
            on_change(new)

    return View(
        EDIT,
        id=activity.app.rid(id) if id else "",
        key=key,
        text=value,
        hint=hint,
        kind="edit",
        on_text=changed,
        on_submit=on_submit,
        password=password,
        focusable=True,
        clickable=True,
        long_clickable=True,
        focused=activity.focus == key,
        height=kw.pop("height", 56),
        padding=8,
        **kw,
    )


def focus(activity: Activity, key: str) -> None:
    """Give a field the focus and show the keyboard (dialogs with a field do this on open)."""
    activity.focus = key
    activity.wm.ime_shown = True


def setting_checkbox(activity: Activity, holder_id: str, box_id: str, label: str, pref: str, default: bool) -> View:
    """A settings row: a clickable holder with a checkbox that mirrors a boolean pref."""
    app = activity.app
    value = bool(app.pref(pref, default))

    def toggle() -> None:
        app.set_pref(pref, not bool(app.pref(pref, default)))

    box = View(
        CHECKBOX,
        id=app.rid(box_id),
        text=label,
        checkable=True,
        checked=value,
        clickable=False,
        focusable=True,
        kind="checkbox",
        padding=8,
    )
    return View(
        RELATIVE,
        id=app.rid(holder_id),
        clickable=True,
        focusable=True,
        on_click=toggle,
        children=[box],
        height=56,
        padding=4,
        kind="row",
    )


def setting_choice(
    activity: Activity, holder_id: str, label_id: str, value_id: str, label: str, value: str, action: Action
) -> View:
    """A settings row that opens a dialog; shows its current value under the label."""
    app = activity.app
    return View(
        RELATIVE,
        id=app.rid(holder_id),
        clickable=True,
        focusable=True,
        on_click=action,
        kind="row",
        padding=8,
        children=[text(app.rid(label_id), label), text(app.rid(value_id), value, size=14)],
    )


def section(activity: Activity, id: str, label: str) -> View:
    return text(activity.app.rid(id) if id else "", label, size=14, bold=True, padding=12)


def scroll(id: str, children: list[View], cls: str = SCROLL, **kw) -> View:
    return View(cls, id=id, children=children, scrollable=True, weight=kw.pop("weight", 1), **kw)


def pager(
    id: str, children: list[View], current: int, count: int, pick: Callable[[int], None], cls: str = VIEW_PAGER, **kw
) -> View:
    """A ViewPager showing page `current` of `count`: a horizontal swipe picks the next or the
    previous one (`pick(index)`), none past either end."""

    def turn(step: int) -> None:
        if 0 <= current + step < count:
            pick(current + step)

    return View(cls, id=id, children=children, on_page=turn if count > 1 else None, **kw)


def frame(children: list[View], **kw) -> View:
    return View(FRAME, children=children, orientation=kw.pop("orientation", "v"), **kw)


def column(children: list[View], **kw) -> View:
    return View(LINEAR, children=children, **kw)


def row(children: list[View], **kw) -> View:
    return View(LINEAR, orientation="h", children=children, **kw)


def image(id: str = "", desc: str = "", icon: str = "", **kw) -> View:
    return View(IMAGE, id=id, desc=desc, icon=icon, kind=kw.pop("kind", "icon"), **kw)


def media(
    id: str, host: Path, fit: str = "crop", corners: float = 0, error: str = "", edits: tuple[str, ...] = (), **kw
) -> View:
    """An ImageView showing a file's own pixels (a video's poster frame); `host` is its host path."""
    try:
        st = host.stat()
        stamp = Media(str(host), st.st_mtime_ns, st.st_size, fit, corners, error, edits)
    except OSError:  # gone: drawn as a file that cannot be decoded
        stamp = Media(str(host), 0, -1, fit, corners, error, edits)
    return View(IMAGE, id=id, kind="media", media=stamp, **kw)


def screen(toolbar_view: View | None, body: list[View], fab: View | None = None, id: str = "") -> View:
    """A CoordinatorLayout-like screen: toolbar on top, body filling the rest, optional FAB."""
    content = View(LINEAR, children=[c for c in (toolbar_view, *body) if c is not None])
    if fab is None:
        return View(VIEW_GROUP, id=id, children=[content], orientation="stack")
    return View(VIEW_GROUP, id=id, children=[content, fab], orientation="stack")


def fab(id: str, desc: str, icon: str, action: Action) -> View:
    return icon_button(id, desc, icon, action, size=56, kind="fab", gravity="end", vgravity="end", padding=16)


__all__ = ["EDIT", "FRAME", "LINEAR", "TEXT", "View"]


def confirm_dialog(activity: Activity, message: str, on_yes: Action, *, yes: str = "Yes", no: str = "No"):
    """commons' ConfirmationDialog: a message (`PKG:id/message`) with Yes / No."""
    body = [text(activity.app.rid("message"), message, padding=12, max_lines=ANY_LINES)]
    return alert(activity, "", body, positive=(yes, on_yes), negative=(no, lambda: None))


def sort_dialog(
    activity: Activity,
    options: Sequence[tuple[str, str]],
    current: str,
    descending: bool,
    on_ok: Callable[[str, bool], None],
    *,
    order: bool = True,
    no_order: Sequence[str] = (),
):
    """An app's ChangeSortingDialog: `sorting_dialog_radio_<option>` radios, then Ascending /
    Descending (`sorting_dialog_radio_order`); choices apply only on OK, as in the real apps.

    `options` are (id suffix, label) pairs, e.g. ("name", "Name") -> sorting_dialog_radio_name.
    """
    app = activity.app
    state = {"by": current, "desc": descending}

    def choose(key: str, value: object) -> Action:
        def run() -> None:
            state[key] = value

        return run

    def option(suffix: str, label: str, checked: bool, action: Action) -> View:
        return radio(app.rid(f"sorting_dialog_radio_{suffix}"), label, checked, action)

    def body() -> list[View]:
        sorting = View(
            RADIO_GROUP,
            id=app.rid("sorting_dialog_radio_sorting"),
            children=[option(suffix, label, state["by"] == suffix, choose("by", suffix)) for suffix, label in options],
        )
        children = [sorting]
        if order and state["by"] not in no_order:  # e.g. Custom/Random hide the order group
            children.append(
                View(
                    RADIO_GROUP,
                    id=app.rid("sorting_dialog_radio_order"),
                    children=[
                        option("ascending", "Ascending", not state["desc"], choose("desc", False)),
                        option("descending", "Descending", bool(state["desc"]), choose("desc", True)),
                    ],
                )
            )
        holder = View(LINEAR, id=app.rid("sorting_dialog_holder"), children=children)
        return [View(SCROLL, id=app.rid("sorting_dialog_scrollview"), children=[holder])]

    return alert(
        activity,
        "Sort by",
        body,
        positive=("OK", lambda: on_ok(str(state["by"]), bool(state["desc"]))),
        negative=("Cancel", lambda: None),
    )
