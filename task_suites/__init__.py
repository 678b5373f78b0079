"""Benchmark task suites for pytest-mobile-agent (run with `pytest task_suites --agent=...`)."""
