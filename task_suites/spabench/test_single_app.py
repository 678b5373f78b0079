"""SPA-Bench-style single-app tasks: every set of sets/ at its three levels, in English
and in Chinese (test_<app>_<set>_<level>_<ENG|CHN>)."""

from task_suites.spabench.levels import tasks_of
from task_suites.spabench.sets import SETS

globals().update(tasks_of(SETS))
