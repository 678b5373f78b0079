"""SPA-Bench-style single-app tasks: every set of sets/ at its three levels, in English
and in Chinese (test_<app>_<set>_<level>_<ENG|CHN>)."""

from .levels import tasks_of
from .sets import SETS

globals().update(tasks_of(SETS))
