"""Simple Gallery Pro's settings screen, with the viewer's bottom actions it manages.

Learned from Simple-Gallery's activity_settings.xml, SettingsActivity.kt, helpers/Config.kt
(defaults), dialog_manage_bottom_actions.xml and Simple-Commons' RadioGroupDialog.kt.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from pytest_mobile_agent.virtual.apps.commons.customization import CustomizationActivity
from pytest_mobile_agent.virtual.apps.commons.dates import date_time_format_dialog
from pytest_mobile_agent.virtual.apps.commons.formats import format_size
from pytest_mobile_agent.virtual.apps.commons.settings import (
    language_name,
    settings_check,
    settings_link,
    settings_protected,
    settings_screen,
    settings_section,
    settings_value,
)
from pytest_mobile_agent.virtual.apps.gallery.store import GalleryStore
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity
from pytest_mobile_agent.virtual.ui.view import LINEAR, SCROLL, View

# Bottom actions of the viewer: (key, id, content-desc, icon); the first four are the default.
BOTTOM_ACTIONS = (
    ("favorite", "bottom_favorite", "Toggle favorite", "star_outline"),
    ("edit", "bottom_edit", "Edit", "edit"),
    ("share", "bottom_share", "Share", "share"),
    ("delete", "bottom_delete", "Delete", "delete"),
    ("rotate", "bottom_rotate", "Rotate right", "refresh"),
    ("properties", "bottom_properties", "Properties", "info"),
    ("change_orientation", "bottom_change_orientation", "Change orientation", "refresh"),
    ("slideshow", "bottom_slideshow", "Slideshow", "play"),
    ("show_on_map", "bottom_show_on_map", "Show on map", "globe"),
    ("toggle_file_visibility", "bottom_toggle_file_visibility", "Toggle file visibility", "eye"),
    ("rename", "bottom_rename", "Rename", "edit"),
    ("set_as", "bottom_set_as", "Set as", "image"),
    ("copy", "bottom_copy", "Copy", "copy"),
    ("move", "bottom_move", "Move", "folder"),
    ("resize", "bottom_resize", "Resize", "image"),
)
DEFAULT_BOTTOM = ["favorite", "edit", "share", "delete"]
# ManageBottomActionsDialog checkboxes (dialog_manage_bottom_actions.xml) where id/text differ.
MANAGE_IDS = {"favorite": "toggle_favorite", "toggle_file_visibility": "toggle_visibility"}
MANAGE_LABELS = {"rotate": "Rotate"}
# Checkbox rows: (name, label, default); a name is the holder `settings_NAME_holder` and the
# checkbox `settings_NAME`, the pref key is the name too.
CHECKS = {
    "show_hidden_items": ("Show hidden items", False),
    "search_all_files": ("Search all files instead of folders on the main screen", False),
    "autoplay_videos": ("Play videos automatically", False),
    "remember_last_video_position": ("Remember last video playback position", False),
    "loop_videos": ("Loop videos", False),
    "open_videos_on_separate_screen": ("Always open videos on a separate screen with new horizontal gestures", False),
    "allow_video_gestures": ("Allow controlling video volume and brightness with vertical gestures", True),
    "crop_thumbnails": ("Crop thumbnails into squares", True),
    "animate_gifs": ("Animate GIFs at thumbnails", False),
    "scroll_horizontally": ("Scroll thumbnails horizontally", False),
    "enable_pull_to_refresh": ("Enable pull-to-refresh from the top", True),
    "max_brightness": ("Max brightness when viewing fullscreen media", False),
    "black_background": ("Black background at fullscreen media", False),
    "hide_system_ui": ("Automatically hide system UI at fullscreen media", False),
    "allow_instant_change": ("Allow instantly changing media by clicking on screen sides", False),
    "allow_photo_gestures": ("Allow controlling photo brightness with vertical gestures", False),
    "allow_down_gesture": ("Allow closing the fullscreen view with a down gesture", True),
    "show_notch": ("Show a notch if available", True),
    "allow_zooming_images": ("Allow deep zooming images", True),
    "allow_rotating_with_gestures": ("Allow rotating images with gestures", True),
    "show_highest_quality": ("Show images in the highest possible quality", False),
    "allow_one_to_one_zoom": ("Allow 1:1 zooming in with two double taps", False),
    "show_extended_details": ("Show extended details over fullscreen media", False),
    "hide_extended_details": ("Hide extended details when status bar is hidden", False),
    "app_password_protection": ("Password protect the whole application", False),
    "hidden_item_password_protection": ("Password protect hidden item visibility", False),
    "excluded_item_password_protection": ("Password protect excluded folder visibility", False),
    "file_deletion_password_protection": ("Password protect file deletion and moving", False),
    "delete_empty_folders": ("Delete empty folders after deleting their content", False),
    "keep_last_modified": ("Keep old last-modified value at file operations", True),
    "skip_delete_confirmation": ("Always skip delete confirmation dialog", False),
    "bottom_actions_checkbox": ("Show some action buttons at the bottom of the screen", True),
    "use_recycle_bin": ("Move items into the Recycle Bin instead of deleting", True),
    "show_recycle_bin": ("Show the Recycle Bin at the folders screen", True),
    "show_recycle_bin_last": ("Show the Recycle Bin as the last item on the main screen", False),
}
CHOICES = {  # value rows opening a RadioGroupDialog: (label, options, default index)
    "file_loading_priority": ("File loading priority", ("Speed", "Compromise", "Avoid showing invalid files"), 0),
    "folder_thumbnail_style": ("Folder thumbnail style", ("Square", "Rounded corners"), 0),
    "screen_rotation": ("Rotate fullscreen media by", ("System setting", "Device rotation", "Aspect ratio"), 0),
}
PREF_OF = {"show_hidden_items": "show_hidden_media"}  # checkboxes whose Config key differs


# The screen, top to bottom: ("section", name, label) | ("check", name) | ("choice", name) |
# ("link", name, label, label id, action name) | ("when", pref, default, rows...) for dependent rows.
LAYOUT: tuple = (
    ("section", "color_customization_section_label", "Color customization"),
    ("link", "color_customization", "Customize colors", "settings_color_customization_label", "customize"),
    ("section", "general_settings_label", "General"),
    ("language",),
    ("link", "change_date_time_format", "Change date and time format", "settings_change_date_time_format", "date_time"),
    ("choice", "file_loading_priority"),
    ("link", "manage_included_folders", "Manage included folders", "settings_manage_included_folders", "nothing"),
    ("link", "manage_excluded_folders", "Manage excluded folders", "settings_manage_excluded_folders", "nothing"),
    ("check", "show_hidden_items"),
    ("check", "search_all_files"),
    ("section", "videos_label", "Videos"),
    ("check", "autoplay_videos"),
    ("check", "remember_last_video_position"),
    ("check", "loop_videos"),
    ("check", "open_videos_on_separate_screen"),
    ("check", "allow_video_gestures"),
    ("section", "thumbnails_label", "Thumbnails"),
    ("check", "crop_thumbnails"),
    ("check", "animate_gifs"),
    ("link", "file_thumbnail_style", "File thumbnail style", "settings_file_thumbnail_style_label", "nothing"),
    ("choice", "folder_thumbnail_style"),
    ("section", "scrolling_label", "Scrolling"),
    ("check", "scroll_horizontally"),
    ("check", "enable_pull_to_refresh"),
    ("section", "fullscreen_media_label", "Fullscreen media"),
    ("check", "max_brightness"),
    ("check", "black_background"),
    ("check", "hide_system_ui"),
    ("check", "allow_instant_change"),
    ("check", "allow_photo_gestures"),
    ("check", "allow_down_gesture"),
    ("check", "show_notch"),
    ("choice", "screen_rotation"),
    ("section", "deep_zoomable_images_label", "Deep zoomable images"),
    ("check", "allow_zooming_images"),
    (
        "when",
        "allow_zooming_images",
        True,
        ("check", "allow_rotating_with_gestures"),
        ("check", "show_highest_quality"),
        ("check", "allow_one_to_one_zoom"),
    ),
    ("section", "extended_details_label", "Extended details"),
    ("check", "show_extended_details"),
    (
        "when",
        "show_extended_details",
        False,
        ("check", "hide_extended_details"),
        ("link", "manage_extended_details", "Manage extended details", "settings_manage_extended_details", "nothing"),
    ),
    ("section", "security_label", "Security"),
    ("protected", "app_password_protection"),
    ("protected", "hidden_item_password_protection"),
    ("protected", "excluded_item_password_protection"),
    ("protected", "file_deletion_password_protection"),
    ("section", "file_operations_label", "File operations"),
    ("check", "delete_empty_folders"),
    ("check", "keep_last_modified"),
    ("check", "skip_delete_confirmation"),
    ("section", "bottom_actions_label", "Bottom actions"),
    ("check", "bottom_actions_checkbox"),
    (
        "when",
        "bottom_actions_checkbox",
        True,
        (
            "link",
            "manage_bottom_actions",
            "Manage visible bottom actions",
            "settings_manage_bottom_actions",
            "bottom_actions",
        ),
    ),
    ("section", "recycle_bin_label", "Recycle Bin"),
    ("check", "use_recycle_bin"),
    (
        "when",
        "use_recycle_bin",
        True,
        ("check", "show_recycle_bin"),
        ("check", "show_recycle_bin_last"),
        ("empty_recycle_bin",),
    ),
    ("section", "migrating_label", "Migrating"),
    ("clear_cache",),
    ("link", "export_favorites", "Export favorites", "settings_export_favorites", "nothing"),
    ("link", "import_favorites", "Import favorites", "settings_import_favorites", "nothing"),
    ("link", "export", "Export settings", "settings_export", "nothing"),
    ("link", "import", "Import settings", "settings_import", "nothing"),
)


class SettingsActivity(Activity):
    name = ".activities.SettingsActivity"
    app: GalleryStore

    def content(self) -> View:
        return settings_screen(self, self.rows(LAYOUT))

    def rows(self, layout: tuple) -> list[View]:
        a = self.app
        views: list[View] = []
        for spec in layout:
            kind = spec[0]
            if kind == "section":
                views.append(settings_section(self, spec[1], spec[2]))
            elif kind == "check":
                label, default = CHECKS[spec[1]]
                views.append(settings_check(self, spec[1], label, PREF_OF.get(spec[1], spec[1]), default))
            elif kind == "protected":
                views.append(settings_protected(self, spec[1], CHECKS[spec[1]][0], spec[1]))
            elif kind == "choice":
                views.append(self.choice(spec[1]))
            elif kind == "link":
                views.append(settings_link(self, spec[1], spec[2], getattr(self, f"open_{spec[4]}"), label_id=spec[3]))
            elif kind == "when":
                if a.pref(spec[1], spec[2]):
                    views += self.rows(spec[3:])
            elif kind == "language":
                views.append(settings_value(self, "language", "Language", language_name(), lambda: None))
            elif kind == "empty_recycle_bin":
                views.append(
                    self.size_row("empty_recycle_bin", "Empty the Recycle Bin", self.trash_size(), self.open_empty_bin)
                )
            elif kind == "clear_cache":
                views.append(self.size_row("clear_cache", "Clear cache", "0 B", lambda: self.toast("Cache cleared")))
        return views

    def choice(self, name: str) -> View:
        a = self.app
        label, options, default = CHOICES[name]
        current = int(a.pref(name, default))
        pick = lambda: self.show(w.radio_dialog(self, options, current, lambda i: a.set_pref(name, i)))
        return settings_value(self, name, label, options[current], pick)

    def size_row(self, name: str, label: str, size: str, action: Callable[[], None]) -> View:
        """A settings link with the size it would free beside its label."""
        row = settings_link(self, name, label, action)
        row.children.append(w.text(self.app.rid(f"settings_{name}_size"), size, size=14))
        return row

    def trash_size(self) -> str:
        gallery = self.app
        return format_size(sum(m["size"] for m in gallery.trashed()))

    def open_customize(self) -> None:
        self.start(CustomizationActivity)

    def open_date_time(self) -> None:
        self.show(date_time_format_dialog(self))

    def open_nothing(self) -> None:
        """Screens not modelled (folder managers, file pickers): the tap does nothing here."""

    def open_empty_bin(self) -> None:
        gallery = self.app
        if not gallery.trashed():
            self.toast("The Recycle Bin is empty")
            return
        message = "Are you sure you want to empty the Recycle Bin? The files will be permanently lost."
        self.show(w.confirm_dialog(self, message, gallery.empty_trash))

    def open_bottom_actions(self) -> None:
        """ManageBottomActionsDialog: a checkbox per action, applied on OK."""
        a = self.app
        chosen = set(a.pref("bottom_actions", DEFAULT_BOTTOM))

        def body() -> list[View]:
            boxes = [
                w.checkbox(
                    a.rid(f"manage_bottom_actions_{MANAGE_IDS.get(key, key)}"),
                    MANAGE_LABELS.get(key, desc),
                    key in chosen,
                    partial(chosen.symmetric_difference_update, {key}),
                )
                for key, _, desc, _ in BOTTOM_ACTIONS
            ]
            holder = View(LINEAR, id=a.rid("manage_bottom_actions_holder"), children=boxes)
            return [View(SCROLL, id=a.rid("manage_bottom_actions_scrollview"), children=[holder])]

        order = [key for key, _, _, _ in BOTTOM_ACTIONS]
        self.show(
            w.alert(
                self,
                "",
                body,
                negative=("Cancel", lambda: None),
                positive=("OK", lambda: a.set_pref("bottom_actions", sorted(chosen, key=order.index))),
            )
        )
