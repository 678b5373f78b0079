"""SPA-Bench-style cross-app tasks (cross_app.py), in English and in Chinese
(test_<category>_<n>_<ENG|CHN>, as SPA-Bench's identifiers)."""

from task_suites.spabench.cross_app import TASKS, tasks_of

globals().update(tasks_of(TASKS))
