"""The apps' texts in the device's locale.

The app models are written with the English texts of the real apps' `values/strings.xml`; each
tree they build is drawn through the string tables (resources/strings.py) before
layout, so a zh-CN device shows the real apps' `values-zh-rCN` strings (texts, content
descriptions and hints). What is no app string (names, numbers, typed text) stays as it is.
Dates and times are formatted while the tree is built, in the locale `drawing()` sets.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from pytest_mobile_agent.virtual.resources.strings import DEFAULT_LOCALE, is_default, translator
from pytest_mobile_agent.virtual.ui.view import EDIT, View

# Views that show the user's data (file, folder, contact, note, track and event names, message
# bodies): their text is never taken for an app string, so a folder named "Download" stays so.
CONTENT_IDS = frozenset(
    {
        "item_name",
        "item_section",
        "dir_name",
        "dir_path",
        "folder_path",
        "medium_name",
        "property_value",
        "contact_name",
        "item_contact_name",
        "item_contact_number",
        "contact_notes",
        "contact_organization_company",
        "contact_organization_job_position",
        "group_name",
        "conversation_address",
        "conversation_body_short",
        "thread_message_body",
        "search_result_title",
        "search_result_snippet",
        "dialog_select_text_value",
        "manage_blocked_keyword_title",
        "manage_favorite_title",
        "event_item_title",
        "event_item_description",
        "week_event_label",
        "launcher_label",
        "open_note_item_title",
        "open_note_item_text",
        "checklist_title",
        "player_title",
        "current_track_label",
        "recording_title",
        "track_title",
        "album_title",
        "artist_title",
        "playlist_title",
        "folder_title",
        "genre_title",
    }
)
_DRAWING: ContextVar[str] = ContextVar("drawing_locale", default=DEFAULT_LOCALE)


@contextmanager
def drawing(locale: str) -> Iterator[None]:
    """While an app builds a tree: the locale its dates and times are formatted in."""
    token = _DRAWING.set(locale)
    try:
        yield
    finally:
        _DRAWING.reset(token)


def drawing_locale() -> str:
    return _DRAWING.get()


def localize_tree(root: View, package: str, locale: str) -> View:
    if is_default(locale):
        return root
    tr = translator(package, locale)
    stack = [root]
    while stack:  # a loop, not View.walk(): a month grid has thousands of views, every frame
        v = stack.pop()
        stack.extend(v.children)
        if v.text and v.cls != EDIT and v.id.rpartition("/")[2] not in CONTENT_IDS:  # not what the user typed or saved
            v.text = tr(v.text)
        if v.desc:
            v.desc = tr(v.desc)
        if v.hint:
            v.hint = tr(v.hint)
    return root
