"""Other benchmarks' task files, run as they are: MobileAgentBench's Python task files
(mobileagentbench.py, with a stand-in of its package in mab_package/), SPA-Bench's CSV files
(spabench.py) and Mobile-Bench's JSON files (mobilebench.py), on the machinery they share
(task_file.py). registry.py says which file is whose."""
