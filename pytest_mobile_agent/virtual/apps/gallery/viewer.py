"""Gallery's fullscreen viewer, the "Set as" chooser and Simple Wallpaper.

Learned from Simple-Gallery's activity_medium.xml, bottom_actions.xml, menu_viewpager.xml,
ViewPagerActivity.kt, activity_set_wallpaper.xml, menu_set_wallpaper.xml,
bottom_set_wallpaper_actions.xml, SetWallpaperActivity.kt and Simple-Commons'
dialog_properties.xml, dialog_rename_item.xml. See docs/fidelity/gallery.md.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from pytest_mobile_agent.virtual.apps.commons.dates import date_format, java_date, time_format
from pytest_mobile_agent.virtual.apps.commons.dialogs import properties_dialog
from pytest_mobile_agent.virtual.apps.commons.formats import format_size
from pytest_mobile_agent.virtual.apps.gallery.dialogs import save_as_dialog, thumbnail, write_picture
from pytest_mobile_agent.virtual.apps.gallery.settings import BOTTOM_ACTIONS, DEFAULT_BOTTOM, SettingsActivity
from pytest_mobile_agent.virtual.apps.gallery.store import GalleryStore, media_type
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, App, Overlay
from pytest_mobile_agent.virtual.ui.render.media import dimensions
from pytest_mobile_agent.virtual.ui.view import IMAGE, LINEAR, RELATIVE, VIEW_GROUP, View


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

    overlay = Overlay(build, title=title, package="android")  # the chooser is a system window
    return overlay


class ViewPagerActivity(Activity):
    name = ".activities.ViewPagerActivity"
    app: GalleryStore

    def __init__(self, app: App, extras: dict[str, str] | None = None) -> None:
        super().__init__(app, extras)
        self.path = self.extras.get("path", "")
        self.degrees = 0  # the photo's unsaved rotation (PhotoFragment.mCurrentRotationDegrees)

    def content(self) -> View:
        a = self.app
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
                *([("menu_change_orientation", "Change orientation", self.orientation)] if not self.degrees else []),
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
        if self.degrees:  # menu_save_as shows while the photo is turned
            actions.insert(0, ("menu_save_as", "Save as", "check", self.save_as))
        if "properties" not in bottom_keys:
            actions.append(("menu_properties", "Properties", "info", self.properties))
        bar = w.toolbar(
            self, "medium_viewer_toolbar", file_name, back=True, actions=tuple(actions), overflow=tuple(overflow)
        )
        appbar = View(LINEAR, id=a.rid("medium_viewer_appbar"), children=[bar], height=56)
        folder = self.extras.get("directory") or self.path.rsplit("/", 1)[0]  # opened from elsewhere: its folder
        siblings = [m["path"] for m in a.sort_items(a.media_in(folder), a.sorting(folder))]
        at = siblings.index(self.path) if self.path in siblings else 0
        pick = lambda i: self.open_sibling(siblings[i])  # noqa: E731
        pager = w.pager(a.rid("view_pager"), [self.page(file_name)], at, len(siblings), pick)
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

    def page(self, file_name: str) -> View:
        """The pager's page: a photo fitted into the screen on black (PhotoFragment's fitCenter),
        or a video's frame under the big play mark (pager_video_item.xml)."""
        a = self.app
        if media_type(file_name) != 2:
            turns = ("rotate",) * (self.degrees // 90)
            return thumbnail(a, "gestures_view", self.path, fit="fit", edits=turns, key=file_name, weight=1)
        preview = thumbnail(a, "video_preview", self.path, fit="fit", key=file_name)
        play = View(
            IMAGE, id=a.rid("video_play_outline"), kind="play", width=96, height=96, gravity="center", vgravity="center"
        )
        return View(RELATIVE, id=a.rid("video_holder"), orientation="stack", weight=1, children=[preview, play])

    def handlers(self) -> dict[str, Callable[[], None]]:
        return {
            "favorite": lambda: self.app.toggle_favorite(self.path),
            "edit": self.edit,
            "share": self.share,
            "delete": self.delete,
            "rotate": lambda: self.rotate_by(90),
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

    def edit(self) -> None:
        """openEditor: an image opens the F-Droid build's EditActivity (an explicit intent);
        the video editor is not modelled."""
        editor = self.app.activity_class(".activities.EditActivity")
        if editor is not None and media_type(self.path.rsplit("/", 1)[-1]) != 2:
            self.start(editor, path=self.path)

    def later(self) -> None:
        """Operations that need pickers or other apps: nothing happens here."""

    def rotate(self) -> None:
        items = [
            ("menu_rotate_right", "Rotate right", lambda: self.rotate_by(90)),
            ("menu_rotate_left", "Rotate left", lambda: self.rotate_by(-90)),
            ("menu_rotate_one_eighty", "Rotate by 180º", lambda: self.rotate_by(180)),
        ]
        self.show(w.popup_menu(self, items))

    def rotate_by(self, degrees: int) -> None:
        """rotateImageViewBy: the photo turns on screen; Save as writes it."""
        self.degrees = (self.degrees + degrees) % 360

    def save_as(self) -> None:
        """saveImageAs: SaveAsDialog on the file's own name, then the turned picture written
        (saveRotatedImageToFile, the old last-modified time kept when overwriting)."""

        def save(target: str) -> None:
            if write_picture(self, self.path, target, ("rotate",) * (self.degrees // 90)):
                self.degrees = 0

        save_as_dialog(self, self.path, False, save)

    def orientation(self) -> None:
        items = [
            ("menu_force_portrait", "Force portrait", self.later),
            ("menu_force_landscape", "Force landscape", self.later),
            ("menu_default_orientation", "Use default orientation", self.later),
        ]
        self.show(w.popup_menu(self, items))

    def properties(self) -> None:
        a = self.app
        host = a.device.fs.host(self.path)
        stat = host.stat() if host.exists() else None
        rows = [("Name", host.name), ("Path", self.path)]
        if stat:
            moment = datetime.fromtimestamp(stat.st_mtime, UTC)
            rows.append(("Size", format_size(stat.st_size)))
            size = dimensions(str(host)) if media_type(host.name) == 1 else None
            if size is not None:  # commons formatAsResolution: "W x H (0.1MP)"
                rows.append(("Resolution", f"{size[0]} x {size[1]} ({int(size[0] * size[1] / 1e5 + 0.5) / 10}MP)"))
            rows.append(("Last modified", java_date(f"{date_format(a)}, {time_format(a)}", moment)))
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
        a = self.app
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
        if not self.app.shows_hidden():
            self.finish()

    def open_sibling(self, path: str) -> None:
        """The pager turned to the folder's next or previous medium."""
        self.path = path
        self.extras["path"] = path
        self.degrees = 0

    def move_to(self, new: str) -> None:
        a = self.app
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
    app: GalleryStore
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
        crop = thumbnail(a, "crop_image_view", path, fit="fit", key=path.rsplit("/", 1)[-1], weight=1)
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
            RELATIVE,
            id=a.rid("activity_set_wallpaper_holder"),
            weight=1,
            children=[w.column([crop, actions], weight=1)],
        )
        return View(
            VIEW_GROUP,
            id=a.rid("set_wallpaper_coordinator"),
            children=[w.column([appbar, holder], weight=1)],
            color="black",
        )

    def save(self) -> None:
        """commons RadioGroupDialog without title or buttons; a tap sets the wallpaper."""
        options = ["Home screen", "Lock screen", "Home and lock screen"]

        def chosen(which: int) -> None:
            self.toast("Setting wallpaper…")
            self.app.set_wallpaper(self.extras.get("path", ""), which)
            self.finish()

        self.show(w.radio_dialog(self, options, -1, chosen))
