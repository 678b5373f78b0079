"""Mobile-Bench-style queries (Deng et al., ACL 2024) on the ten Simple Mobile Tools apps.

Three kinds, as the benchmark's: SAST (single app, single task; 10 steps), SAMT (single app,
several tasks; 20 steps) and MAMT (several apps; 50 steps). Every query starts from the home
screen and can be done two ways: by API calls (`adb shell am start` intents the apps declare,
as Mobile-Bench's agent emits them, then UI steps where the intent leaves some) and by UI
steps alone. Each task carries both paths; the oracle replays the UI path, or the API path
with `MOBILEBENCH_GOLDEN=api`. CheckPoints (package, key phrases, API) accept either path.
"""
