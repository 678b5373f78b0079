"""The `events` fixture: the accessibility events since the task's reset, with assertion helpers.

Task bodies read it like `assert events.clicked(text="=")`; on a device in another locale an
English text of the apps also matches the form the app shows there ("OK" matches "确认"). During an episode the harness
evaluates the body once per new event with a view that ends at that event, so a condition
that held only for a moment (a click that saved something) still counts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from pytest_mobile_agent.events.schema import AccessibilityEvent
from pytest_mobile_agent.locales import DEFAULT_LOCALE, is_default, variants

CLICKED = "TYPE_VIEW_CLICKED"
LONG_CLICKED = "TYPE_VIEW_LONG_CLICKED"
TEXT_CHANGED = "TYPE_VIEW_TEXT_CHANGED"
WINDOW_STATE = "TYPE_WINDOW_STATE_CHANGED"


def _matches(
    ev: AccessibilityEvent, id: str | None, text: str | None, desc: str | None, package: str | None, locale: str
) -> bool:
    if id is not None and ev.view_id != id and not (ev.view_id or "").endswith(":id/" + id):
        return False
    if text is not None and not any(t in ev.text for t in _forms(text, ev, locale)):
        return False
    if desc is not None and ev.content_description not in _forms(desc, ev, locale):
        return False
    return package is None or ev.package == package


def _forms(text: str, ev: AccessibilityEvent, locale: str) -> list[str]:
    """An English app text and the form the event's app shows it in under `locale`."""
    return [text] if is_default(locale) else [text, *variants(text, [ev.package or ""], locale)]


class EventLog:
    def __init__(
        self,
        source: Callable[[], list[AccessibilityEvent]] | None = None,
        sync: Callable[[], object] | None = None,
    ) -> None:
        self._source = source or (lambda: [])
        # Waits until the events the device has sent so far are in (the stream is asynchronous).
        self.sync = sync or (lambda: None)
        self._start = 0  # events before this index happened before the reset
        self._limit: int | None = None
        self.locale = DEFAULT_LOCALE  # the device's: an English app text also matches its form there

    def mark(self) -> None:
        """Forget everything so far: called right after the task's reset. The stream is
        asynchronous, so it first waits until what the device sent before is in: a late event of
        the reset (the previous task's app redrawn) would otherwise count as the episode's."""
        self.sync()
        self._start = len(self._source())

    def all(self) -> list[AccessibilityEvent]:
        events = self._source()[self._start :]
        return events if self._limit is None else events[: self._limit]

    def __iter__(self) -> Iterator[AccessibilityEvent]:
        return iter(self.all())

    def __len__(self) -> int:
        return len(self.all())

    def view_until(self, count: int | None) -> EventLog:
        """The same log cut after its first `count` events (None = everything)."""
        view = EventLog(self._source, self.sync)
        view._start, view._limit, view.locale = self._start, count, self.locale
        return view

    def of_type(self, type_: str) -> list[AccessibilityEvent]:
        return [e for e in self.all() if e.type == type_]

    def find(
        self,
        type_: str = CLICKED,
        *,
        id: str | None = None,
        text: str | None = None,
        desc: str | None = None,
        package: str | None = None,
    ) -> list[AccessibilityEvent]:
        return [e for e in self.of_type(type_) if _matches(e, id, text, desc, package, self.locale)]

    def clicked(
        self, *, id: str | None = None, text: str | None = None, desc: str | None = None, package: str | None = None
    ) -> bool:
        """Was a view clicked that has this id / text (one of its texts) / description?"""
        return bool(self.find(CLICKED, id=id, text=text, desc=desc, package=package))

    def long_clicked(self, **kw: str) -> bool:
        return bool(self.find(LONG_CLICKED, **kw))

    def last_click(self) -> AccessibilityEvent | None:
        clicks = self.of_type(CLICKED)
        return clicks[-1] if clicks else None

    def typed(self, text: str, *, id: str | None = None) -> bool:
        """Did a text field (with this id) hold exactly `text` at some point?"""
        return bool(self.find(TEXT_CHANGED, id=id, text=text))

    def windows(self) -> list[str]:
        """Titles of the windows that came up, in order (activities, dialogs)."""
        return [e.window_title or e.class_name for e in self.of_type(WINDOW_STATE)]
