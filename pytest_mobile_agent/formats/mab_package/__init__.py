"""A stand-in for MobileAgentBench's `mobile_agent_benchmark` package, loaded under that name
only when the real one is neither installed nor next to the task files being run.

It offers what task files import: `bench_task.Task`, `server.AppEvent` / `AppEventType`, the
`tasks` package their relative imports resolve in, and the `assets` two tasks push
(`importlib.resources.files("mobile_agent_benchmark") / "assets/..."`): a plain gradient
`wallpaper.png` and two silent ID3-tagged `music1.mp3` / `music2.mp3` ("Morning", "Evening"),
made for this stand-in (the suite's `tagged_mp3`), not the benchmark's files.
"""
