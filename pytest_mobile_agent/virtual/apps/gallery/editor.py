"""Gallery's basic editor (the F-Droid build's EditActivity, "Basic Editor"), reached from the
viewer's Edit: Transform rotates a quarter turn, flips horizontally or vertically and crops to a
fixed aspect ratio; the toolbar's Save as asks for a name and writes the transformed image, which
the folder's listing then shows.

Learned from Simple-Gallery's activity_edit.xml, bottom_editor_primary_actions.xml,
bottom_editor_crop_rotate_actions.xml, bottom_actions_aspect_ratio.xml, menu_editor.xml,
dialog_save_as.xml, EditActivity.kt and SaveAsDialog.kt. See docs/fidelity/gallery.md §2.8.
"""

from __future__ import annotations

from functools import partial

from pytest_mobile_agent.virtual.apps.gallery.dialogs import save_as_dialog, thumbnail, write_picture
from pytest_mobile_agent.virtual.apps.gallery.store import GalleryStore
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, App
from pytest_mobile_agent.virtual.ui.view import IMAGE, LINEAR, RELATIVE, TEXT, VIEW_GROUP, View

PRIMARY = (  # (key, id, content-desc, icon)
    ("filter", "bottom_primary_filter", "Filter", "photo_filter"),
    ("crop_rotate", "bottom_primary_crop_rotate", "Transform", "crop_rotate"),
    ("draw", "bottom_primary_draw", "Draw", "draw"),
)
RATIOS = (  # (id suffix, label, crop edit); Other asks for numbers: not modelled
    ("free", "Free", ""),
    ("one_one", "1:1", "crop:1:1"),
    ("four_three", "4:3", "crop:4:3"),
    ("sixteen_nine", "16:9", "crop:16:9"),
)
SELECTED_TINT = "#f57c00"  # the current action's colour filter: the app's primary colour


class EditActivity(Activity):
    name = ".activities.EditActivity"
    label = "Basic Editor"
    app: GalleryStore

    def __init__(self, app: App, extras: dict[str, str] | None = None) -> None:
        super().__init__(app, extras)
        self.path = self.extras.get("path", "")
        self.primary = ""  # the primary action shown: "", "filter", "crop_rotate" or "draw"
        self.cropping = False  # the crop view took over from the plain one (stays until Filter)
        self.ratios_shown = False
        self.ratio = "free"
        self.edits: list[str] = []  # rotations and flips, in order

    def operations(self) -> tuple[str, ...]:
        crop = next(op for key, _, op in RATIOS if key == self.ratio)
        return (*self.edits, crop) if crop else tuple(self.edits)

    def content(self) -> View:
        a = self.app
        bar = w.toolbar(
            self,
            "editor_toolbar",
            "",
            back=True,
            actions=(
                ("save_as", "Save as", "check", self.save_as),
                ("edit", "Edit with", "edit", lambda: None),  # a chooser of other editors: none here
                ("share", "Share", "share", lambda: None),
            ),
        )
        appbar = View(LINEAR, id=a.rid("editor_app_bar_layout"), children=[bar])
        if self.cropping:
            picture = thumbnail(a, "crop_image_view", self.path, fit="fit", edits=self.operations(), weight=1)
        else:
            picture = thumbnail(a, "default_image_view", self.path, fit="fit", weight=1)
        bars: list[View] = []
        if self.primary == "crop_rotate" and self.ratios_shown:
            bars.append(self.ratio_bar())
        if self.primary == "crop_rotate":
            bars.append(self.crop_rotate_bar())
        bars.append(self.bar("bottom_editor_primary_actions", [self.action(*p) for p in PRIMARY]))
        bottom = View(LINEAR, id=a.rid("bottom_editor_actions_background"), color="dark", children=bars)
        holder = View(
            RELATIVE, id=a.rid("activity_edit_holder"), weight=1, children=[w.column([picture, bottom], weight=1)]
        )
        return View(
            VIEW_GROUP, id=a.rid("editor_coordinator"), color="black", children=[w.column([appbar, holder], weight=1)]
        )

    def bar(self, id: str, buttons: list[View]) -> View:
        return View(VIEW_GROUP, id=self.app.rid(id), orientation="h", height=64, children=buttons)

    def action(self, key: str, id: str, desc: str, icon: str) -> View:
        button = w.icon_button(self.app.rid(id), desc, icon, lambda: self.pick(key), cls=IMAGE, weight=1)
        button.tint = SELECTED_TINT if key == self.primary else "#ffffff"
        return button

    def crop_rotate_bar(self) -> View:
        a = self.app
        buttons = [
            w.icon_button(a.rid("bottom_rotate"), "Rotate", "rotate_right", lambda: self.edits.append("rotate")),
            w.icon_button(a.rid("bottom_resize"), "Resize", "close_fullscreen", lambda: None),  # asks for a size
            w.icon_button(a.rid("bottom_aspect_ratio"), "Crop", "aspect_ratio", self.toggle_ratios),
            w.icon_button(a.rid("bottom_flip_horizontally"), "Flip horizontally", "flip", lambda: self.flip("h")),
            w.icon_button(a.rid("bottom_flip_vertically"), "Flip vertically", "swap_vert", lambda: self.flip("v")),
        ]
        for b in buttons:
            b.cls, b.weight = IMAGE, 1
            b.tint = SELECTED_TINT if b.id.endswith("aspect_ratio") and self.ratios_shown else "#ffffff"
        return self.bar("bottom_editor_crop_rotate_actions", buttons)

    def ratio_bar(self) -> View:
        a = self.app
        labels = [
            View(
                TEXT,
                id=a.rid(f"bottom_aspect_ratio_{key}"),
                text=label,
                clickable=True,
                focusable=True,
                kind="text",
                gravity="center",
                bold=key == self.ratio,
                weight=1,
                on_click=partial(self.choose_ratio, key),
            )
            for key, label, _ in RATIOS
        ]
        labels.append(
            View(TEXT, id=a.rid("bottom_aspect_ratio_other"), text="Other", clickable=True, kind="text", weight=1)
        )
        return View(VIEW_GROUP, id=a.rid("bottom_aspect_ratios_wrapper"), orientation="h", height=48, children=labels)

    def pick(self, key: str) -> None:
        """A primary action toggles; Transform brings the crop view, Filter the plain one back."""
        self.primary = "" if self.primary == key else key
        if self.primary == "crop_rotate":
            self.cropping = True
        elif self.primary == "filter":
            self.cropping = False
            self.edits, self.ratio = [], "free"
        if self.primary != "crop_rotate":
            self.ratios_shown = False

    def choose_ratio(self, key: str) -> None:
        self.ratio = key

    def toggle_ratios(self) -> None:
        self.ratios_shown = not self.ratios_shown

    def flip(self, axis: str) -> None:
        self.edits.append(f"flip_{axis}")

    def save_as(self) -> None:
        """SaveAsDialog with "_1" appended to the name; OK writes the picture as the crop view
        holds it (or the original), then "File saved successfully" and back to the viewer."""
        save_as_dialog(self, self.path, True, self.write)

    def write(self, target: str) -> None:
        if write_picture(self, self.path, target, self.operations() if self.cropping else ()):
            self.finish()
