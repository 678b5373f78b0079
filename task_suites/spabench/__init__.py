"""SPA-Bench-style tasks on the ten Simple Mobile Tools apps, in English and in Chinese.

- Single-app: sets of three levels where each level's instruction and golden path are the
  previous level's plus one more part (SPA-Bench's sets: level 1 a prefix of level 2, of
  level 3). A set is data (single_app.py): its parts, each with its sentence in both languages,
  golden steps, checks, key components and a near miss; levels.py turns a set into its six
  tasks (three levels, two languages).
- Cross-app: tasks over two or three apps, started from the home screen, each with its
  subtask split in SPA-Bench's cross-app-split shape (app, task, history, memory) for the
  `spa` and `mllm` judges (cross_app.py).

Chinese tasks carry `locale="zh-CN"`: their prompts are Chinese and they run on a zh-CN device.
Golden paths address elements by resource id where the app has one, so one path serves both.
"""
