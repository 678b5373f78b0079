"""The single-app sets, two on each of the ten apps (levels.py turns each into six tasks)."""

from task_suites.spabench.sets.media import GALLERY_SETS, MUSIC_SETS, RECORDER_SETS
from task_suites.spabench.sets.messaging import CONTACT_SETS, SMS_SETS
from task_suites.spabench.sets.organizers import CALENDAR_SETS, NOTES_SETS
from task_suites.spabench.sets.tools import CALCULATOR_SETS, FILE_MANAGER_SETS, LAUNCHER_SETS

SETS = [
    *CONTACT_SETS,
    *SMS_SETS,
    *CALENDAR_SETS,
    *NOTES_SETS,
    *RECORDER_SETS,
    *GALLERY_SETS,
    *MUSIC_SETS,
    *FILE_MANAGER_SETS,
    *LAUNCHER_SETS,
    *CALCULATOR_SETS,
]
