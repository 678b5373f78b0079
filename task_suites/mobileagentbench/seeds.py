"""Preconditions several apps' tasks share, as plain functions of the device (adb-level means only).

Task files wrap them in fixtures. Append new seeds at the end; do not change existing ones.
"""

from __future__ import annotations

from typing import Any

NUMBER = "123456789"
MESSAGE = "i luv u"


def remove_conversation(device: Any, number: str = NUMBER) -> None:
    """Delete the number's messages and its thread, so no earlier episode's conversation (sent,
    archived) is left over: `pm clear` of an app does not touch the telephony provider."""
    device.sh(f"content delete --uri content://sms --where \"address='{number}'\"")
    device.sh(f"content delete --uri content://mms-sms/conversations --where \"address='{number}'\"")


def conversation_123456789(device: Any) -> None:
    """MobileAgentBench's SMS setup: a conversation with 123456789 holding the sent 'i luv u'."""
    remove_conversation(device)
    device.sh(f"content insert --uri content://sms/sent --bind address:s:{NUMBER} --bind 'body:s:{MESSAGE}'")
