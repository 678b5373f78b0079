"""Where results go: the JSON-lines results file, the terminal table, trajectories on disk,
the summary plot and Allure reports (`python -m pytest_mobile_agent.reporting` makes the HTML)."""
