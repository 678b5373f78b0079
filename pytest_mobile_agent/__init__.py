"""pytest-mobile-agent: benchmark LLM agents for Android phones as pytest test cases."""

from .actions import Action, Api, Done, Key, Launch, LongPress, Scroll, Swipe, Tap, Type, Wait
from .tasks import task

__version__ = "0.1.0"
__all__ = ["Action", "Api", "Done", "Key", "Launch", "LongPress", "Scroll", "Swipe", "Tap", "Type", "Wait", "task"]
