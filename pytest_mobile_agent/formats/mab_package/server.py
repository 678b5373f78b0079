"""The event types a task's `check_finish(view_client, app_event)` receives."""

from __future__ import annotations

from enum import Enum


class AppEventType(Enum):
    Unknown = 0
    Click = 1
    WindowStateChange = 2


class AppEvent:
    """One accessibility event as MobileAgentBench's listener app reported it."""

    def __init__(self) -> None:
        self.type = AppEventType.Unknown
        self.package = ""
        self.id_str = ""
        self.content_desc = ""
        self.text_list: list[str] = []

    def __str__(self) -> str:
        return (
            f"Event - type: {self.type}, id_str: {self.id_str!r}, content_desc: {self.content_desc!r}, "
            f"text_list: {self.text_list}, package: {self.package}"
        )
