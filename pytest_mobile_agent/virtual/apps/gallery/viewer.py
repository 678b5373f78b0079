"""Gallery's fullscreen viewer, the "Set as" chooser, Simple Wallpaper and the settings screen.

Learned from Simple-Gallery's activity_medium.xml, bottom_actions.xml, menu_viewpager.xml,
ViewPagerActivity.kt, activity_set_wallpaper.xml, menu_set_wallpaper.xml,
bottom_set_wallpaper_actions.xml, SetWallpaperActivity.kt, activity_settings.xml,
SettingsActivity.kt, helpers/Config.kt (defaults) and Simple-Commons' dialog_properties.xml,
dialog_rename_item.xml, RadioGroupDialog.kt. See docs/fidelity/gallery.md.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from pytest_mobile_agent.virtual.apps.commons.customization import CustomizationActivity
from pytest_mobile_agent.virtual.apps.commons.dates import date_format, date_time_format_dialog, java_date, time_format
from pytest_mobile_agent.virtual.apps.commons.dialogs import properties_dialog
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
from pytest_mobile_agent.virtual.apps.gallery.store import media_type
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, App, Overlay
from pytest_mobile_agent.virtual.ui.view import IMAGE, LINEAR, RELATIVE, SCROLL, VIEW_GROUP, View

if TYPE_CHECKING:
    from pytest_mobile_agent.virtual.apps.gallery.main import Gallery

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


def chooser(activity: Activity, title: str, targets: list[tuple[str, str, Callable[[], None]]]) -> Overlay:
    """The system chooser (Intent.createChooser): a sheet owned by the system, one row per target."""

    def pick(action: Callable[[], None]) -> Callable[[], None]:
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
                orientation="h",
                height=64,
                padding=8,
                kind="row",
                on_click=pick(action),
                children=[
                    w.image("android:id/icon", "", icon, width=40, height=40),
                    w.text("android:id/text1", label, padding=8),
                ],
            )
            for label, icon, action in targets
        ]
        if not rows:
            rows = [w.text("android:id/empty", "No apps can perform this action.", padding=16)]
        return View(
            LINEAR,
            id="android:id/contentPanel",
            padding=8,
            children=[
                w.text("android:id/title", title, size=18, bold=True, padding=12),
                View("android.widget.ListView", id="android:id/resolver_list", children=rows),
            ],
        )

    overlay = Overlay(build, title=title)
    overlay.package = "android"  # type: ignore[attr-defined]  # the chooser is a system window
    return overlay


class ViewPagerActivity(Activity):
    name = ".activities.ViewPagerActivity"

    def __init__(self, app: App, extras: dict[str, str] | None = None) -> None:
        super().__init__(app, extras)
        self.path = self.extras.get("path", "")

    @property
    def gallery(self) -> Gallery:
        return self.app  # type: ignore[return-value]

    def content(self) -> View:
        a = self.gallery
        file_name = self.path.rsplit("/", 1)[-1]
        image = media_type(file_name) != 2
        bottom_keys = a.pref("bottom_actions", DEFAULT_BOTTOM) if a.pref("bottom_actions_checkbox", True) else []
        handlers = self.handlers()
        overflow = [
            ("menu_rename", "Rename", self.rename),
            ("menu_hide", "Hide", self.hide),
            ("menu_copy_to", "Copy to", self.later),
            ("menu_move_to", "Move to", self.later),
            ("menu_create_shortcut", "Create shortcut", self.later),
            ("menu_open_with", "Open with", self.open_with),
        ]
        if image:
            overflow += [
                ("menu_set_as", "Set as", self.set_as),
                ("menu_change_orientation", "Change orientation", self.orientation),
                ("menu_print", "Print", self.later),
                ("menu_resize", "Resize", self.later),
            ]
        overflow += [
            ("menu_show_on_map", "Show on map", self.later),
            ("menu_slideshow", "Slideshow", self.later),
            ("menu_settings", "Settings", lambda: self.start(SettingsActivity)),
        ]
        duplicated = {
            "rename": "menu_rename",
            "set_as": "menu_set_as",
            "slideshow": "menu_slideshow",
            "show_on_map": "menu_show_on_map",
            "change_orientation": "menu_change_orientation",
            "resize": "menu_resize",
        }
        hidden = {duplicated[k] for k in bottom_keys if k in duplicated}
        overflow = [item for item in overflow if item[0] not in hidden]
        actions = [("menu_rotate", "Rotate", "refresh", self.rotate)] if image and "rotate" not in bottom_keys else []
        if "properties" not in bottom_keys:
            actions.append(("menu_properties", "Properties", "info", self.properties))
        bar = w.toolbar(
            self, "medium_viewer_toolbar", file_name, back=True, actions=tuple(actions), overflow=tuple(overflow)
        )
        appbar = View(LINEAR, id=a.rid("medium_viewer_appbar"), children=[bar], height=56)
        pager = View(
            "androidx.viewpager.widget.ViewPager",
            id=a.rid("view_pager"),
            children=[View(IMAGE, kind="image", key=file_name)],
        )
        layers = [pager, w.image(a.rid("top_shadow"), height=56, kind="divider"), appbar]
        if bottom_keys:
            favorite = a.is_favorite(self.path)
            buttons = [
                w.icon_button(
                    a.rid(rid),
                    desc,
                    "star" if key == "favorite" and favorite else icon,
                    handlers[key],
                    cls=IMAGE,
                    weight=1,
                )
                for key, rid, desc, icon in BOTTOM_ACTIONS
                if key in bottom_keys
            ]
            holder = View(VIEW_GROUP, id=a.rid("bottom_actions"), orientation="h", children=buttons)
            layers.append(
                View(
                    VIEW_GROUP,
                    id=a.rid("bottom_actions_wrapper"),
                    height=64,
                    vgravity="end",
                    children=[holder],
                    color="dark",
                )
            )
        return View(RELATIVE, id=a.rid("fragment_holder"), orientation="stack", color="black", children=layers)

    def handlers(self) -> dict[str, Callable[[], None]]:
        return {
            "favorite": lambda: self.gallery.toggle_favorite(self.path),
            "edit": lambda: self.toast("Editor"),
            "share": self.share,
            "delete": self.delete,
            "rotate": self.later,
            "properties": self.properties,
            "change_orientation": self.orientation,
            "slideshow": self.later,
            "show_on_map": self.later,
            "toggle_file_visibility": self.hide,
            "rename": self.rename,
            "set_as": self.set_as,
            "copy": self.later,
            "move": self.later,
            "resize": self.later,
        }

    def later(self) -> None:
        """Operations that need pickers or other apps: nothing happens here."""

    def rotate(self) -> None:
        items = [
            ("menu_rotate_right", "Rotate right", self.later),
            ("menu_rotate_left", "Rotate left", self.later),
            ("menu_rotate_one_eighty", "Rotate by 180º", self.later),
        ]
        self.show(w.popup_menu(self, items))

    def orientation(self) -> None:
        items = [
            ("menu_force_portrait", "Force portrait", self.later),
            ("menu_force_landscape", "Force landscape", self.later),
            ("menu_default_orientation", "Use default orientation", self.later),
        ]
        self.show(w.popup_menu(self, items))

    def properties(self) -> None:
        a = self.gallery
        host = a.device.fs.host(self.path)
        stat = host.stat() if host.exists() else None
        rows = [("Name", host.name), ("Path", self.path)]
        if stat:
            moment = datetime.fromtimestamp(stat.st_mtime, UTC)
            rows += [
                ("Size", format_size(stat.st_size)),
                ("Last modified", java_date(f"{date_format(a)}, {time_format(a)}", moment)),
            ]
        self.show(properties_dialog(self, rows))

    def share(self) -> None:
        self.show(chooser(self, "Share via", []))

    def open_with(self) -> None:
        self.show(chooser(self, "Open with", []))

    def set_as(self) -> None:
        """Intent.createChooser(ACTION_ATTACH_DATA, "Set as"): Gallery's own target is Simple Wallpaper."""
        targets = [("Simple Wallpaper", "image", lambda: self.start(SetWallpaperActivity, path=self.path))]
        self.show(chooser(self, "Set as", targets))

    def delete(self) -> None:
        a = self.gallery
        host = a.device.fs.host(self.path)
        name = f'"{host.name}" ({format_size(host.stat().st_size if host.exists() else 0)})'
        verb = "move {} into the Recycle Bin" if a.pref("use_recycle_bin", True) else "delete {}"

        def yes() -> None:
            a.delete(self.path)
            self.finish()

        if a.pref("skip_delete_confirmation", False):
            yes()
            return
        self.show(w.confirm_dialog(self, f"Are you sure you want to {verb.format(name)}?", yes))

    def hide(self) -> None:
        """Hiding a file renames it with a leading dot."""
        self.move_to(self.path.rsplit("/", 1)[0] + "/." + self.path.rsplit("/", 1)[-1])
        if not self.gallery.shows_hidden():
            self.finish()

    def move_to(self, new: str) -> None:
        a = self.gallery
        a.device.fs.host(self.path).rename(a.device.fs.host(new))
        if a.is_favorite(self.path):
            a.save("favorites", [new if p == self.path else p for p in a.favorites()])
        self.path = new

    def rename(self) -> None:
        """RenameItemDialog: name and extension fields, OK renames the file."""
        a = self.app
        stem, _, ext = self.path.rsplit("/", 1)[-1].rpartition(".")
        self.texts["rename_item_name"], self.texts["rename_item_extension"] = stem, ext

        def body() -> list[View]:
            fields = [
                View(
                    LINEAR,
                    id=a.rid(f"rename_item_{part}_hint"),
                    children=[w.edit(self, f"rename_item_{key}", hint=hint)],
                )
                for part, key, hint in (("title", "name", "Title"), ("extension", "extension", "Extension"))
            ]
            return [View(LINEAR, id=a.rid("rename_item_holder"), padding=8, children=fields)]

        def ok() -> None:
            self.focus = None
            name = self.texts.get("rename_item_name", "").strip()
            extension = self.texts.get("rename_item_extension", "").strip()
            if not name:
                self.toast("Empty name")
                return
            self.move_to(self.path.rsplit("/", 1)[0] + "/" + name + (f".{extension}" if extension else ""))

        self.show(w.alert(self, "Rename", body, positive=("OK", ok), negative=("Cancel", lambda: None)))
        w.focus(self, "rename_item_name")


class PhotoActivity(ViewPagerActivity):
    """VIEW of an image from another app (PhotoVideoActivity): the one file, in the viewer's screen."""

    name = ".activities.PhotoActivity"


class VideoActivity(ViewPagerActivity):
    name = ".activities.VideoActivity"


class SetWallpaperActivity(Activity):
    """Simple Wallpaper: crop screen, ✓ Save asks where the wallpaper goes, then finishes."""

    name = ".activities.SetWallpaperActivity"
    label = "Simple Wallpaper"  # the manifest label: the window title Android reports

    def content(self) -> View:
        a = self.app
        path = self.extras.get("path", "")
        aspect = a.pref("allow_changing_aspect_ratio", False)
        bar = w.toolbar(
            self,
            "set_wallpaper_toolbar",
            "Simple Wallpaper",
            back=True,
            actions=(("save", "Save", "check", self.save),),
            overflow=(
                (
                    "allow_changing_aspect_ratio",
                    "Allow changing the aspect ratio",
                    lambda: a.set_pref("allow_changing_aspect_ratio", not aspect),
                ),
            ),
        )
        appbar = View(LINEAR, id=a.rid("set_wallpaper_app_bar_layout"), children=[bar])
        crop = View(IMAGE, id=a.rid("crop_image_view"), kind="image", key=path.rsplit("/", 1)[-1], weight=1)
        bottom = [w.icon_button(a.rid("bottom_set_wallpaper_rotate"), "Rotate", "refresh", lambda: None, cls=IMAGE)]
        if aspect:
            bottom.insert(
                0, w.icon_button(a.rid("bottom_set_wallpaper_aspect_ratio"), "", "image", lambda: None, cls=IMAGE)
            )
        actions = View(
            VIEW_GROUP,
            id=a.rid("bottom_set_wallpaper_actions_wrapper"),
            orientation="h",
            height=64,
            gravity="center",
            children=bottom,
            color="dark",
        )
        holder = View(
            RELATIVE, id=a.rid("activity_set_wallpaper_holder"), weight=1, children=[w.column([crop, actions])]
        )
        return View(
            VIEW_GROUP, id=a.rid("set_wallpaper_coordinator"), children=[w.column([appbar, holder])], color="black"
        )

    def save(self) -> None:
        """commons RadioGroupDialog without title or buttons; a tap sets the wallpaper."""
        options = ["Home screen", "Lock screen", "Home and lock screen"]

        def chosen(which: int) -> None:
            self.toast("Setting wallpaper…")
            self.app.set_wallpaper(self.extras.get("path", ""), which)  # type: ignore[attr-defined]
            self.finish()

        self.show(w.radio_dialog(self, options, -1, chosen))


# -- settings --------------------------------------------------------------------------------------
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
PREF_OF = {"show_hidden_items": "show_hidden_media"}  # checkboxes whose Config key differs


class SettingsActivity(Activity):
    name = ".activities.SettingsActivity"

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
        pick = lambda: self.show(w.radio_dialog(self, options, current, lambda i: a.set_pref(name, i)))  # noqa: E731
        return settings_value(self, name, label, options[current], pick)

    def size_row(self, name: str, label: str, size: str, action: Callable[[], None]) -> View:
        """A settings link with the size it would free beside its label."""
        row = settings_link(self, name, label, action)
        row.children.append(w.text(self.app.rid(f"settings_{name}_size"), size, size=14))
        return row

    def trash_size(self) -> str:
        gallery: Any = self.app
        return format_size(sum(m["size"] for m in gallery.trashed()))

    def open_customize(self) -> None:
        self.start(CustomizationActivity)

    def open_date_time(self) -> None:
        self.show(date_time_format_dialog(self))

    def open_nothing(self) -> None:
        """Screens not modelled (folder managers, file pickers): the tap does nothing here."""

    def open_empty_bin(self) -> None:
        gallery: Any = self.app
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
                    lambda k=key: chosen.symmetric_difference_update({k}),
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


SCREENS = (
    ViewPagerActivity,
    PhotoActivity,
    VideoActivity,
    SetWallpaperActivity,
    SettingsActivity,
    CustomizationActivity,
)
