"""The system's document picker (DocumentsUI, "Files"): what ACTION_GET_CONTENT opens, its
priority-100 filter winning over the apps that also take the intent. It opens on its "Recent"
root: the newest files of shared storage whose type the caller accepts, as grid cards
(item_doc_grid.xml: `item_root` > `thumbnail` > `icon_thumb` / `icon_mime_lg`, `nameplate` >
`android:id/title`, `details`, `date`). Tapping one closes the picker and hands its path to
the caller's `on_pick`, as setResult(RESULT_OK, uri) would; BACK returns nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, App
from pytest_mobile_agent.virtual.ui.view import FRAME, LINEAR, RECYCLER, RELATIVE, View

PACKAGE = "com.google.android.documentsui"
PICK = "com.android.documentsui.picker.PickActivity"
SHARED = "/storage/emulated/0"
RECENT_LIMIT = 64  # RecentsLoader's MAX_DOCS_FROM_ROOT
TYPES = {
    "image": {"jpg", "jpeg", "png", "gif", "bmp", "webp", "heic", "heif"},
    "video": {"mp4", "mkv", "webm", "avi", "mov", "3gp", "m4v"},
    "audio": {"mp3", "m4a", "wav", "ogg", "flac", "aac", "amr", "opus"},
}


def accepts(mime: str, name: str) -> bool:
    """Whether a file of this name has a type `mime` ("image/*", "video/*", "*/*") takes."""
    family = mime.split("/", 1)[0]
    if family == "*":
        return True
    ext = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    return ext in TYPES.get(family, set())


def _size(n: int) -> str:
    """Formatter.formatShortFileSize (SI units, as Android shows sizes)."""
    for unit in ("B", "kB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n} {unit}" if unit == "B" else f"{n:.2f}".rstrip("0").rstrip(".") + f" {unit}"
        n = n / 1000  # type: ignore[assignment]
    return ""


class PickActivity(Activity):
    name = PICK

    def __init__(self, app: App, extras: dict[str, str] | None = None) -> None:
        super().__init__(app, extras)
        self.mime = self.extras.get("mime", "*/*")
        self.on_pick: Callable[[str], None] | None = None  # the caller's onActivityResult

    def recent(self) -> list[tuple[str, int, float]]:
        """(device path, size, mtime) of the accepted files, newest first; hidden ones and
        Android/ left out."""
        fs = self.app.device.fs
        root = fs.host(SHARED)
        found = []
        for p in root.rglob("*"):
            parts = p.relative_to(root).parts
            if not p.is_file() or parts[0] == "Android" or any(x.startswith(".") for x in parts):
                continue
            if accepts(self.mime, p.name):
                st = p.stat()
                found.append((f"{SHARED}/{'/'.join(parts)}", st.st_size, st.st_mtime))
        found.sort(key=lambda f: f[2], reverse=True)
        return found[:RECENT_LIMIT]

    def pick(self, path: str) -> None:
        callback = self.on_pick
        self.finish()
        if callback:
            callback(path)

    def card(self, path: str, size: int, mtime: float) -> View:
        rid, name = self.app.rid, path.rsplit("/", 1)[-1]
        family = "image" if accepts("image/*", name) else ""
        thumb = (
            w.media(rid("icon_thumb"), self.app.device.fs.host(path), "crop", height=120)
            if family
            else w.image(rid("icon_mime_lg"), "", "insert_drive_file", height=120)
        )
        when = datetime.fromtimestamp(mtime, UTC).strftime("%b %-d")
        plate = View(
            LINEAR,
            id=rid("nameplate"),
            orientation="h",
            children=[
                View(
                    FRAME,
                    id=rid("icon"),
                    width=40,
                    children=[w.image(rid("icon_mime_sm"), "", "image" if family else "file")],
                ),
                w.column(
                    [
                        w.text("android:id/title", name, size=14),
                        w.row(
                            [
                                w.text(rid("details"), _size(size), size=12),
                                w.text(rid("date"), when, size=12, padding=0),
                            ]
                        ),
                    ],
                    weight=1,
                    padding=4,
                ),
            ],
        )
        thumbnail = View(FRAME, id=rid("thumbnail"), children=[thumb])
        return View(
            FRAME,
            id=rid("item_root"),
            clickable=True,
            focusable=True,
            key=path,
            weight=1,
            padding=2,
            on_click=lambda: self.pick(path),
            children=[View(RELATIVE, children=[thumbnail, plate])],
        )

    def content(self) -> View:
        rid = self.app.rid
        files = self.recent()
        lines = []
        for start in range(0, len(files), 2):  # two columns on a phone in portrait
            cards = [self.card(*f) for f in files[start : start + 2]]
            if len(cards) == 1:
                cards.append(View(FRAME, weight=1))
            lines.append(View(LINEAR, orientation="h", children=cards))
        body: list[View] = []
        if not files:
            body.append(w.text(rid("message"), "No items", gravity="center", padding=24))
        body.append(w.scroll(rid("dir_list"), lines, cls=RECYCLER, weight=1))
        bar = w.toolbar(self, "toolbar", "Recent", back=True)
        return w.screen(
            bar, [View(FRAME, id=rid("container_directory"), weight=1, children=[w.column(body, weight=1)])]
        )


class DocumentsUi(App):
    package = PACKAGE
    label = "Files"
    system = True
    version_code = 330000000
    version_name = "13"
    main_activity = PickActivity


APPS = (DocumentsUi,)
