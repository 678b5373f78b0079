"""Views: the nodes of a window's tree, with Android's accessibility attributes.

Apps build a fresh tree from their state whenever it changed; layout assigns pixel bounds.
Sizes are in dp (converted with the display density at layout time), so an app reads like its
layout XML. `kind` tells the renderer how to draw a node; it never reaches the dump.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

Bounds = tuple[int, int, int, int]
Action = Callable[[], None]

# Android widget classes as uiautomator reports them.
FRAME = "android.widget.FrameLayout"
LINEAR = "android.widget.LinearLayout"
RELATIVE = "android.widget.RelativeLayout"
VIEW_GROUP = "android.view.ViewGroup"
TEXT = "android.widget.TextView"
BUTTON = "android.widget.Button"
IMAGE_BUTTON = "android.widget.ImageButton"
IMAGE = "android.widget.ImageView"
EDIT = "android.widget.EditText"
CHECKBOX = "android.widget.CheckBox"
SWITCH = "android.widget.Switch"
RADIO = "android.widget.RadioButton"
RADIO_GROUP = "android.widget.RadioGroup"
RECYCLER = "androidx.recyclerview.widget.RecyclerView"
SCROLL = "android.widget.ScrollView"
VIEW = "android.view.View"


@dataclass(frozen=True)
class Media:
    """A file an ImageView shows from its own pixels (kind "media"): its host path, with the
    modification time and size that tell a changed file from the one drawn before."""

    path: str
    mtime_ns: int
    size: int
    fit: str = "crop"  # android:scaleType: "crop" (centerCrop, thumbnails) or "fit" (fitCenter)
    corners: float = 0  # rounded corners' radius, in dp
    error: str = ""  # drawn when the file is not an image: "" nothing, "file_type" the type's sheet
    edits: tuple[str, ...] = ()  # an editor's unsaved operations, in order (see render/media.py `edited`)


@dataclass(eq=False)
class View:
    cls: str = VIEW
    id: str = ""
    text: str = ""
    desc: str = ""
    children: list[View] = field(default_factory=list)
    # Accessibility flags, as in the dump.
    clickable: bool = False
    long_clickable: bool = False
    checkable: bool = False
    checked: bool = False
    enabled: bool = True
    focusable: bool = False
    focused: bool = False
    scrollable: bool = False
    selected: bool = False
    password: bool = False
    # Layout, in dp. None = match the parent along that axis (or wrap text, for a text leaf).
    width: float | None = None
    height: float | None = None
    weight: float = 0.0
    orientation: str = "v"  # "v", "h" or "stack" (children overlap)
    padding: float = 0.0
    gravity: str = "start"  # where a narrower child sits: start, center, end
    vgravity: str = "start"  # in a stack: where a shorter child sits vertically
    # View.setX/setY in a "stack" parent (a RelativeLayout's freely placed child): the child's
    # offset from the parent's top-left corner in dp, sized by its own width/height (else the rest).
    x: float | None = None
    y: float | None = None
    # android:gravity of a container: where its children sit along its axis when they leave room
    # (`gravity` above is their layout_gravity in it). Weighted children take the room instead.
    content_gravity: str = "start"
    # Behaviour.
    on_click: Action | None = None
    on_long_click: Action | None = None
    on_text: Callable[[str], None] | None = None  # EditText: new content
    on_submit: Action | None = None  # EditText: IME action (enter)
    on_page: Callable[[int], None] | None = None  # a ViewPager: a horizontal swipe turns it +1 (next) or -1
    # A touch listener (GestureDetector.onSingleTapUp, a SeekBar's thumb): a tap calls it with the
    # spot as fractions (0..1) of the view's width and height inside its padding (a SeekBar's
    # track); no click event, as on Android.
    on_touch: Callable[[float, float], None] | None = None
    # A long press on this view that then moves drags it (drag-select, a drag handle): called
    # with the key of the view it was dragged to, the one under the finger at the lift that
    # has on_drag too.
    on_drag: Callable[[str], None] | None = None
    # A drag handle: a touch that moves from it drags its item at once, without a long press
    # (ItemTouchHelper.startDrag on ACTION_DOWN); its on_drag gets the key of the item dragged
    # to, the deepest view under the lift that holds a handle too.
    drag_handle: bool = False
    hint: str = ""  # EditText placeholder, drawn but not reported as text
    touch_expand: float = 0.0  # extra touch area on every side, in dp (TouchDelegate)
    # Rendering hints.
    kind: str = ""  # text, button, edit, icon, switch, checkbox, radio, toolbar, fab, row, ...
    icon: str = ""
    color: str = ""  # background colour name or #rrggbb
    text_size: float = 16.0  # sp
    # android:maxLines of a text leaf: 1 draws one line, ellipsized; more wraps the text to its
    # slot's width, as a dialog's message does (layout gives it the wrapped lines' height).
    max_lines: int = 1
    # android:ellipsize of a text leaf: "end" ("…" where the text is cut), "middle" (one line
    # keeping its start and its end), or "" (none: cut where it wraps, as maxLines alone does).
    ellipsize: str = "end"
    bold: bool = False
    strike: bool = False  # Paint.STRIKE_THRU_TEXT_FLAG: a line through the text
    alpha: float = 1.0  # View.setAlpha: the text or icon drawn that opaque over what is below
    tint: str = ""  # an ImageView's colour filter (#rrggbb): the icon's colour
    # A canvas-drawn view (kind "month"): what its onDraw paints, as a hashable value. Drawn
    # only: like a real custom View's canvas, none of it reaches the dump.
    canvas: tuple = ()
    # EditText cursor: "" = Material's text_cursor_material (a 2dp bar in the accent colour);
    # "hairline" = android:textCursorDrawable="@null" (a 1px line in the text colour).
    cursor: str = ""
    media: Media | None = None  # kind "media": the image or video file drawn
    # Filled by layout.
    bounds: Bounds = (0, 0, 0, 0)
    visible_bounds: Bounds = (0, 0, 0, 0)  # bounds clipped by scrolling parents
    shown: bool = True  # False when scrolled wholly out of view
    scroll_y: int = 0  # scrollable containers: pixels scrolled
    content_height: int = 0  # scrollable containers: total height of the children, px
    key: str = ""  # identity across rebuilds (focus, scroll state); defaults to id

    def __post_init__(self) -> None:
        if not self.key:
            self.key = self.id or self.text

    @property
    def reports_scrollable(self) -> bool:
        """What the dump and uiautomator say: a scrolling list, or a ViewPager (sideways)."""
        return self.scrollable or self.on_page is not None

    def walk(self) -> Iterator[View]:
        yield self
        for child in self.children:
            yield from child.walk()

    def find(self, *, id: str | None = None, text: str | None = None) -> View | None:
        for v in self.walk():
            if (id is None or v.id == id or v.id.endswith(":id/" + id)) and (text is None or v.text == text):
                return v
        return None
